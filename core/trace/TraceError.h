#pragma once
// Bad trace input or output: "FILE:LINE: reason" (line 0 when the whole file is at fault).

#include <stdexcept>
#include <string>

namespace immap::trace {

class TraceError : public std::runtime_error {
public:
    TraceError(const std::string& file, std::uint64_t line, const std::string& reason)
        : std::runtime_error(file + ":" + std::to_string(line) + ": " + reason),
          file_(file),
          line_(line),
          reason_(reason) {}
    const std::string& file() const { return file_; }
    std::uint64_t line() const { return line_; }
    const std::string& reason() const { return reason_; }

private:
    std::string file_;
    std::uint64_t line_;
    std::string reason_;
};

}  // namespace immap::trace
