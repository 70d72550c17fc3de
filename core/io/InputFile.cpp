#include "InputFile.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace immap::io {

namespace {

std::string describeType(mode_t m) {
    return InputFile::fileType(m);
}

std::string describeOpenError(int e, bool noFollow) {
    if (e == ENOENT) return "no such file";
    if (e == ELOOP) return noFollow ? "a symbolic link, not followed" : "a loop of symbolic links";
    // open(2) of a socket fails with ENXIO: say what it is.
    if (e == ENXIO) return "not a regular file (a socket or a device with no driver)";
    return std::string("cannot open: ") + std::strerror(e);
}

std::string mib(std::uint64_t bytes) {
    if (bytes >= (std::uint64_t{1} << 30) && bytes % (std::uint64_t{1} << 30) == 0)
        return std::to_string(bytes >> 30) + " GiB";
    if (bytes >= (std::uint64_t{1} << 20)) return std::to_string(bytes >> 20) + " MiB";
    return std::to_string(bytes) + " bytes";
}

}  // namespace

std::string InputFile::fileOfSpec(const std::string& spec) {
    for (const std::string kind : {"xml:", "maps:", "snapshot:", "trace:"})
        if (spec.rfind(kind, 0) == 0) return spec.substr(kind.size());
    return spec.find(':') == std::string::npos && spec != "host" && spec != "live" ? spec : "";
}

std::string InputFile::fileType(unsigned mode) {
    const mode_t m = static_cast<mode_t>(mode);
    if (S_ISDIR(m)) return "a directory";
    if (S_ISFIFO(m)) return "a FIFO";
    if (S_ISCHR(m)) return "a character device";
    if (S_ISBLK(m)) return "a block device";
    if (S_ISSOCK(m)) return "a socket";
    return "not a plain file";
}

std::string InputFile::capMessage(std::uint64_t cap, std::string_view kind) {
    return "larger than the " + mib(cap) + " limit for " + std::string(kind);
}

InputFile::InputFile(const std::string& path, std::uint64_t cap, std::string_view kind, Options o)
    : path_(path), cap_(cap), kind_(kind) {
    fd_ = ::open(path.c_str(),
                 O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY | (o.noFollow ? O_NOFOLLOW : 0));
    if (fd_ < 0) {
        errno_ = errno;
        reason_ = describeOpenError(errno_, o.noFollow);
        return;
    }
    struct stat st {};
    if (::fstat(fd_, &st) != 0) {
        errno_ = errno;
        reason_ = std::strerror(errno_);
        return;
    }
    if (!S_ISREG(st.st_mode)) {
        reason_ = "not a regular file (" + describeType(st.st_mode) + ")";
        return;
    }
    size_ = static_cast<std::uint64_t>(st.st_size);
    if (size_ > cap_) reason_ = capMessage(cap_, kind_);
}

InputFile::~InputFile() {
    if (fd_ >= 0) ::close(fd_);
}

bool InputFile::readAll(std::string& out) {
    out.clear();
    if (!ok()) return false;
    // st_size is a hint only: /proc's files report 0, and a file may grow while it is read.
    if (size_ > 0) out.reserve(static_cast<std::size_t>(size_));
    char buf[1 << 16];
    for (;;) {
        const ssize_t n = ::read(fd_, buf, sizeof buf);
        if (n < 0) {
            if (errno == EINTR) continue;
            errno_ = errno;
            reason_ = std::string("read error: ") + std::strerror(errno_);
            return false;
        }
        if (n == 0) return true;
        if (out.size() + static_cast<std::uint64_t>(n) > cap_) {
            reason_ = capMessage(cap_, kind_);
            out.clear();
            return false;
        }
        out.append(buf, static_cast<std::size_t>(n));
    }
}

std::FILE* InputFile::releaseToStdio() {
    if (!ok()) return nullptr;
    std::FILE* f = ::fdopen(fd_, "rb");
    if (!f) {
        errno_ = errno;
        reason_ = std::strerror(errno_);
        return nullptr;
    }
    fd_ = -1;
    return f;
}

}  // namespace immap::io
