#include "limits/UserReason.h"

#include <new>
#include <stdexcept>
#include <system_error>

#include "limits/MemoryBudget.h"

namespace immap::limits {

namespace {

std::string internal(const std::string& doing) {
    return "an internal check failed while " + doing +
           "; this is a bug in immap-lab (please report it with the command or file that caused "
           "it)";
}

// A message written for users names no C++ scope; one that does came from an internal check.
bool looksInternal(const std::string& message) {
    return message.empty() || message.find("::") != std::string::npos ||
           message.find("std::") != std::string::npos;
}

}  // namespace

std::string UserReason::of(std::exception_ptr error, const std::string& doing) {
    try {
        std::rethrow_exception(error);
    } catch (const std::bad_alloc&) {
        return "not enough memory for " + doing + " (this machine has " +
               MemoryBudget::size(static_cast<double>(MemoryBudget::physicalBytes())) + ")";
    } catch (const std::length_error&) {
        return "the request is too large to hold in memory (" + doing + ")";
    } catch (const std::logic_error&) {
        return internal(doing);
    } catch (const std::system_error& e) {
        return "a system call failed while " + doing + ": " + e.code().message();
    } catch (const std::exception& e) {
        return looksInternal(e.what()) ? internal(doing) : std::string(e.what());
    } catch (...) {
        return internal(doing);
    }
}

}  // namespace immap::limits
