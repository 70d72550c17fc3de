#pragma once
// A request refused before any work starts: outside its valid range (InputLimits), or more
// memory or time than this machine has (MemoryBudget). The message is for the user as it is.

#include <stdexcept>
#include <string>

namespace immap::limits {

class LimitError : public std::runtime_error {
public:
    explicit LimitError(const std::string& reason) : std::runtime_error(reason) {}
};

}  // namespace immap::limits
