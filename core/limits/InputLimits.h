#pragma once
// The valid range of every count, size and duration a user can give outside the cost model
// (the cost parameters have theirs in sim::CostParams::table()). One table, so that the CLI,
// the app, scenarios and traces check the same bounds, and `immap simulate --list-params`
// lists them.

#include <string>
#include <string_view>
#include <vector>

namespace immap::limits {

class InputLimits {
public:
    struct Range {
        const char* name;
        const char* unit;
        double min;
        double max;
        const char* meaning;
    };
    static const std::vector<Range>& table();
    // The row for `name`; throws std::out_of_range for a name not in the table (a bug).
    static const Range& range(std::string_view name);
    // True when `value` is finite and inside the range; otherwise false with
    // "NAME must be from MIN to MAX UNIT" (or `label` instead of the name) in `error`.
    static bool check(std::string_view name, double value, std::string& error,
                      std::string_view label = {});
    // A number as the table prints it: 100000, 1e+07, 0.5.
    static std::string number(double v);
};

}  // namespace immap::limits
