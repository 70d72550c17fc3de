#include "io/AtomicFile.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "io/OutputTarget.h"

namespace immap::io {

AtomicFile::AtomicFile(const std::string& path, std::string_view tag) : path_(path) {
    if (std::string why = OutputTarget::refusal(path, {}); !why.empty()) {
        reason_ = std::move(why);
        return;
    }
    // Through a symbolic link to its target: the temporary goes beside the file that is
    // replaced, and the link itself stays.
    target_ = OutputTarget::landing(path);
    const std::filesystem::path target(target_);
    const std::filesystem::path dir = target.parent_path().empty() ? "." : target.parent_path();
    std::string name = ".";
    name += target.filename().string();
    name += ".";
    name += tag;
    name += "-XXXXXX";
    std::string tmpl = (dir / name).string();
    const int fd = ::mkostemp(tmpl.data(), O_CLOEXEC);
    if (fd < 0) {
        fail("cannot write: ", errno);
        return;
    }
    tmpPath_ = tmpl;
    // mkostemp makes a private file (0600); the save gets the old file's permissions, or those
    // a new file usually has.
    struct stat st {};
    ::fchmod(fd, ::stat(target_.c_str(), &st) == 0 ? (st.st_mode & 07777) : 0644);
    file_ = ::fdopen(fd, "wb");
    if (!file_) {
        const int e = errno;
        ::close(fd);
        ::unlink(tmpPath_.c_str());
        tmpPath_.clear();
        fail("cannot write: ", e);
    }
}

AtomicFile::~AtomicFile() {
    if (file_) {
        std::fclose(file_);
        ::unlink(tmpPath_.c_str());
    }
}

void AtomicFile::fail(const std::string& what, int err) {
    if (reason_.empty()) reason_ = what + std::strerror(err);
}

bool AtomicFile::write(std::string_view bytes) {
    if (!ok()) return false;
    if (std::fwrite(bytes.data(), 1, bytes.size(), file_) != bytes.size()) {
        fail("write failed: ", errno);
        return false;
    }
    return true;
}

bool AtomicFile::flush() {
    if (!ok()) return false;
    if (std::fflush(file_) != 0) {
        fail("write failed: ", errno);
        return false;
    }
    return true;
}

bool AtomicFile::commit() {
    if (!ok()) return false;
    const bool flushed = std::fflush(file_) == 0;
    const int flushErr = errno;
    const bool closed = std::fclose(file_) == 0;
    const int closeErr = errno;
    file_ = nullptr;
    if (!flushed || !closed) {
        ::unlink(tmpPath_.c_str());
        fail("write failed: ", !flushed ? flushErr : closeErr);
        return false;
    }
    // rename(2) replaces the target atomically.
    if (std::rename(tmpPath_.c_str(), target_.c_str()) != 0) {
        const int e = errno;
        ::unlink(tmpPath_.c_str());
        fail("cannot save: ", e);
        return false;
    }
    return true;
}

bool AtomicFile::save(const std::string& path, std::string_view bytes, std::string& error) {
    AtomicFile f(path);
    if (f.write(bytes) && f.commit()) return true;
    error = path + ": " + f.reason();
    return false;
}

}  // namespace immap::io
