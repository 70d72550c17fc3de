#pragma once
// Bad topology input, located: what() is "WHERE: reason" or "WHERE:LINE: reason", WHERE being
// the file for xml:FILE and "topology spec 'SPEC'" otherwise. Everything in core/topology
// throws this on bad input.

#include <cstddef>
#include <stdexcept>
#include <string>

namespace immap::topology {

class TopologyError : public std::runtime_error {
public:
    TopologyError(std::string where, std::string reason)
        : TopologyError(std::move(where), 0, std::move(reason)) {}
    TopologyError(std::string where, std::size_t line, std::string reason)
        : std::runtime_error(format(where, line, reason)),
          where_(std::move(where)),
          line_(line),
          reason_(std::move(reason)) {}

    const std::string& where() const { return where_; }  // empty until the loader locates it
    std::size_t line() const { return line_; }           // 1-based; 0 when not about one line
    const std::string& reason() const { return reason_; }

private:
    static std::string format(const std::string& where, std::size_t line,
                              const std::string& reason) {
        std::string s = where;
        if (line) s.append(":").append(std::to_string(line));
        return s.empty() ? reason : s.append(": ").append(reason);
    }

    std::string where_;
    std::size_t line_;
    std::string reason_;
};

}  // namespace immap::topology
