#pragma once
// What the commands write: files replaced whole or not at all, and numbers in one style with one
// set of units (ns, µs, ms; never "us").
#include <QString>
#include <string>

namespace immap::cli {

class CliOutput {
public:
    // Writes text to path through a temporary file renamed over it, so a reader never sees half a
    // file; false with "PATH: reason" otherwise.
    static bool writeAtomically(const QString& path, const std::string& text, std::string& error);

    // v with `decimals` decimals: "0.25".
    static std::string fixed(double v, int decimals);
    // The same with thousands separators on the integer part: "12,345.6".
    static std::string grouped(double v, int decimals = 0);
    // A duration given in ns, in the unit that suits it: "750 ns", "12.5 µs", "3.20 ms".
    static std::string duration(double ns);
    static constexpr const char* kMicroseconds = "µs";
};

}  // namespace immap::cli
