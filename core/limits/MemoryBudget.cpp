#include "limits/MemoryBudget.h"

#include <unistd.h>

#include <cmath>
#include <cstdio>

#include "limits/LimitError.h"

namespace immap::limits {

std::uint64_t MemoryBudget::physicalBytes() {
    const long pages = sysconf(_SC_PHYS_PAGES);
    const long page = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || page <= 0) return UINT64_MAX;  // unknown: let the allocator decide
    return static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page);
}

std::string MemoryBudget::size(double bytes) {
    const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    int u = 0;
    while (bytes >= 1024 && u < 6) {
        bytes /= 1024;
        ++u;
    }
    char buf[64];
    std::snprintf(buf, sizeof buf, bytes < 10 && u > 0 ? "%.1f %s" : "%.0f %s", bytes, units[u]);
    return buf;
}

std::string MemoryBudget::count(double n) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.0f", n);
    const std::string s = buf;
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
        out += s[i];
        const std::size_t left = s.size() - i - 1;
        if (left > 0 && left % 3 == 0) out += ',';
    }
    return out;
}

void MemoryBudget::require(const std::string& what, double bytes) {
    const double have = static_cast<double>(physicalBytes());
    if (std::isfinite(bytes) && bytes <= have) return;
    throw LimitError(what + " need about " + size(bytes) + "; this machine has " + size(have));
}

}  // namespace immap::limits
