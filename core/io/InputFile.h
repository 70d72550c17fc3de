#pragma once
// One input file, opened the one safe way: open(2) with O_NONBLOCK (a FIFO cannot block the
// open) and O_CLOEXEC, then fstat(2) of the opened descriptor, not of the path, so what is
// checked is what is read. Anything but a regular file (a FIFO, a device, a directory, a socket)
// is refused; a symbolic link is followed only to a regular file. Every read is capped, and the
// cap is named in the refusal ("larger than the 64 MiB limit for a topology XML").
//
// A failure never throws from here: ok() is false and reason() says why, so each reader throws
// its own located error type (read<Error>() does that for a whole-file read).

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <type_traits>

#include "io/InputError.h"

namespace immap::io {

class InputFile {
public:
    struct Options {
        bool noFollow = false;  // refuse a symbolic link itself (a captured snapshot's files)
    };

    // `kind` names the input in the cap's message: "a topology XML", "an op script".
    InputFile(const std::string& path, std::uint64_t cap, std::string_view kind, Options o);
    InputFile(const std::string& path, std::uint64_t cap, std::string_view kind)
        : InputFile(path, cap, kind, Options{}) {}
    ~InputFile();
    InputFile(const InputFile&) = delete;
    InputFile& operator=(const InputFile&) = delete;

    bool ok() const { return fd_ >= 0 && reason_.empty(); }
    const std::string& reason() const { return reason_; }
    int error() const { return errno_; }  // the errno behind a failed open, else 0
    int fd() const { return fd_; }        // still owned by this object
    const std::string& path() const { return path_; }
    std::uint64_t cap() const { return cap_; }
    std::uint64_t size() const { return size_; }  // st_size at open (0 for /proc's files)

    // The rest of the file into `out`; false (with reason()) on a read error or past the cap.
    bool readAll(std::string& out);

    // Hands the descriptor to stdio for a streaming reader, which then owns it (nullptr and
    // reason() on failure). The reader keeps the cap: capMessage() words its refusal.
    std::FILE* releaseToStdio();

    // The file a source or topology spec names ("xml:F", "maps:F", "snapshot:F", "trace:F"),
    // or the argument itself when it has no such prefix; "" for specs that name none (host,
    // live, synthetic:...). Outputs are checked against these so none replaces its input.
    static std::string fileOfSpec(const std::string& spec);

    // What a non-regular file is, from its st_mode: "a FIFO", "a directory", ...
    static std::string fileType(unsigned mode);

    // "larger than the 64 MiB limit for a topology XML"
    static std::string capMessage(std::uint64_t cap, std::string_view kind);

    // The whole file, or throws Error(path, 0, reason); Error is a reader's io::InputError.
    template <class Error>
    static std::string read(const std::string& path, std::uint64_t cap, std::string_view kind,
                            Options o) {
        InputFile f(path, cap, kind, o);
        std::string text;
        if (!f.ok() || !f.readAll(text)) fail<Error>(path, f.reason());
        return text;
    }
    // An overload, not a default argument: clang refuses `Options o = {}` inside the class
    // that defines Options' member initialisers.
    template <class Error>
    static std::string read(const std::string& path, std::uint64_t cap, std::string_view kind) {
        return read<Error>(path, cap, kind, Options{});
    }

    template <class Error>
    [[noreturn]] static void fail(const std::string& path, const std::string& reason) {
        static_assert(std::is_base_of_v<InputError, Error>, "readers throw io::InputError");
        throw Error(path, 0, reason);
    }

private:
    std::string path_;
    std::uint64_t cap_;
    std::string kind_;
    int fd_ = -1;
    int errno_ = 0;
    std::uint64_t size_ = 0;
    std::string reason_;
};

}  // namespace immap::io
