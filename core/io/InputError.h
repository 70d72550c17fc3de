#pragma once
// Bad input, located: the one error type every reader throws (its subclasses only name the
// reader). what() is "FILE:LINE: reason", "FILE: reason" when the problem is not on one line,
// or the reason alone when no file is known. The CLI prints what(); dialogs lay out the same
// three fields.

#include <cstddef>
#include <stdexcept>
#include <string>

namespace immap::io {

class InputError : public std::runtime_error {
public:
    InputError(std::string file, std::size_t line, std::string reason)
        : std::runtime_error(format(file, line, reason)),
          file_(std::move(file)),
          line_(line),
          reason_(std::move(reason)) {}
    // Not about a file (a request the reader refuses, a measurement that failed).
    explicit InputError(std::string reason) : InputError({}, 0, std::move(reason)) {}

    const std::string& file() const { return file_; }  // or the spec: "topology spec 'X'"
    std::size_t line() const { return line_; }         // 1-based; 0 when not about one line
    const std::string& reason() const { return reason_; }

    static std::string format(const std::string& file, std::size_t line,
                              const std::string& reason) {
        if (file.empty()) return reason;
        std::string s = file;
        if (line) s.append(":").append(std::to_string(line));
        return s.append(": ").append(reason);
    }

private:
    std::string file_;
    std::size_t line_;
    std::string reason_;
};

}  // namespace immap::io
