#pragma once
// Bad input, located: what() is "FILE:LINE: reason" (": reason" after the file alone when the
// problem is not on one line). Every parser and loader throws this, never anything vaguer.

#include <cstddef>
#include <stdexcept>
#include <string>

namespace immap::procfs {

class ParseError : public std::runtime_error {
public:
    ParseError(std::string file, std::size_t line, std::string reason)
        : std::runtime_error(format(file, line, reason)),
          file_(std::move(file)),
          line_(line),
          reason_(std::move(reason)) {}

    const std::string& file() const { return file_; }
    std::size_t line() const { return line_; }  // 1-based; 0 when not about one line
    const std::string& reason() const { return reason_; }

private:
    static std::string format(const std::string& file, std::size_t line,
                              const std::string& reason) {
        std::string s = file;
        if (line) s.append(":").append(std::to_string(line));
        return s.append(": ").append(reason);
    }

    std::string file_;
    std::size_t line_;
    std::string reason_;
};

}  // namespace immap::procfs
