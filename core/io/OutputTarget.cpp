#include "OutputTarget.h"

#include <sys/stat.h>

#include "io/InputFile.h"

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace immap::io {

namespace {

std::string describeType(mode_t m) {
    return InputFile::fileType(m);
}

}  // namespace

std::string OutputTarget::refusal(const std::string& out, const std::vector<std::string>& inputs) {
    if (out.empty()) return "no file name";
    struct stat st {};
    // stat, not lstat: a link is judged by what it leads to, which is what would be replaced.
    if (::stat(out.c_str(), &st) != 0) {
        if (errno == ENOENT) return {};  // a new file (or a dangling link): nothing to destroy
        return std::string(std::strerror(errno)) + ": not written";
    }
    if (!S_ISREG(st.st_mode))
        return "not a regular file (" + describeType(st.st_mode) + "): not written";
    for (const std::string& in : inputs) {
        struct stat is {};
        if (in.empty() || ::stat(in.c_str(), &is) != 0) continue;
        if (is.st_dev == st.st_dev && is.st_ino == st.st_ino)
            return (in == out ? std::string("is also an input") : "is also the input " + in) +
                   ": not written";
    }
    return {};
}

std::string OutputTarget::checkAll(const std::vector<std::pair<std::string, std::string>>& outs,
                                   const std::vector<std::string>& inputs) {
    for (const auto& [option, path] : outs)
        if (std::string why = check(path, inputs); !why.empty()) return why;
    namespace fs = std::filesystem;
    for (std::size_t i = 0; i < outs.size(); ++i)
        for (std::size_t j = i + 1; j < outs.size(); ++j) {
            std::error_code ea, eb;
            const fs::path a = fs::weakly_canonical(landing(outs[i].second), ea);
            const fs::path b = fs::weakly_canonical(landing(outs[j].second), eb);
            if (!ea && !eb && a == b)
                return outs[j].second + ": " + outs[i].first + " and " + outs[j].first +
                       " name the same file; give each its own";
        }
    return {};
}

std::string OutputTarget::landing(const std::string& out) {
    namespace fs = std::filesystem;
    fs::path p(out);
    // As many hops as the kernel follows (MAXSYMLINKS); a longer chain is a loop, and stat
    // refuses it (ELOOP) before anything is written.
    for (int hop = 0; hop < 40; ++hop) {
        std::error_code ec;
        if (!fs::is_symlink(fs::symlink_status(p, ec)) || ec) break;
        const fs::path to = fs::read_symlink(p, ec);
        if (ec) break;
        p = to.is_absolute() ? to : p.parent_path() / to;
    }
    return p.string();
}

std::string OutputTarget::check(const std::string& out, const std::vector<std::string>& inputs) {
    const std::string why = refusal(out, inputs);
    return why.empty() ? why : out + ": " + why;
}

}  // namespace immap::io
