#pragma once
// An exception that escaped to the top of a program, as one plain sentence for its user:
// never a class or function name (std::bad_alloc, RwSemModel::acquire), which mean nothing
// to someone who only gave a file or a count.

#include <exception>
#include <string>

namespace immap::limits {

class UserReason {
public:
    // `doing` says what was asked, as the user would ("immap tree libc", "opening FILE"):
    // a std::bad_alloc becomes "not enough memory for DOING (this machine has 23 GiB)".
    static std::string of(std::exception_ptr error, const std::string& doing);
};

}  // namespace immap::limits
