#include "OutputTarget.h"

#include <sys/stat.h>

#include "io/InputFile.h"

#include <cerrno>
#include <cstring>

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

std::string OutputTarget::check(const std::string& out, const std::vector<std::string>& inputs) {
    const std::string why = refusal(out, inputs);
    return why.empty() ? why : out + ": " + why;
}

}  // namespace immap::io
