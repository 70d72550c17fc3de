#include "trace/ExecRate.h"

#include <cstdio>

namespace immap::trace {

namespace {
// Thousands separated by commas, as the app's locale-free figures are.
std::string grouped(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.0f", v);
    const std::string s = buf;
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (i > 0 && s[i - 1] != '-' && (s.size() - i) % 3 == 0) out += ',';
        out += s[i];
    }
    return out;
}
}  // namespace

std::string ExecRate::text() const {
    char span[32];
    std::snprintf(span, sizeof span, "%.1f ms", static_cast<double>(spanNs) / 1e6);
    if (countsBegins())
        return grouped(static_cast<double>(begins)) + " exec begins in " + span + ": " +
               grouped(perSecond()) + " /s (the trace records no exec ends)";
    return grouped(static_cast<double>(ends)) + " execs completed in " + span + ": " +
           grouped(perSecond()) + " execs/s";
}

}  // namespace immap::trace
