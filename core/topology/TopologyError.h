#pragma once
// Bad topology input, located: what() is "WHERE: reason", WHERE being the file for xml:FILE
// and "topology spec 'SPEC'" otherwise. Everything in core/topology throws this on bad input.

#include <stdexcept>
#include <string>

namespace immap::topology {

class TopologyError : public std::runtime_error {
public:
    TopologyError(std::string where, std::string reason)
        : std::runtime_error(where.empty() ? reason : where + ": " + reason),
          where_(std::move(where)),
          reason_(std::move(reason)) {}

    const std::string& where() const { return where_; }  // empty until the loader locates it
    const std::string& reason() const { return reason_; }

private:
    std::string where_;
    std::string reason_;
};

}  // namespace immap::topology
