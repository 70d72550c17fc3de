#pragma once
// Whether a request fits in this machine's memory, estimated before the work starts, so that
// an absurd count is refused with the estimate instead of ending in std::bad_alloc (or in the
// kernel's OOM killer) minutes later.

#include <cstdint>
#include <string>

namespace immap::limits {

class MemoryBudget {
public:
    // Physical memory: sysconf(_SC_PHYS_PAGES) * sysconf(_SC_PAGESIZE).
    static std::uint64_t physicalBytes();
    // "24 GiB", "512 MiB", "96 KiB".
    static std::string size(double bytes);
    // Throws LimitError "WHAT need(s) about X; this machine has Y" when `bytes` is more than
    // physical memory. `what` is the request as the user said it ("10,000,000 processes").
    static void require(const std::string& what, double bytes);
    // 10000000 -> "10,000,000".
    static std::string count(double n);
};

}  // namespace immap::limits
