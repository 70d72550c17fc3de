#pragma once
// Bad input anywhere below a command (a located ParseError or TopologyError, or a request
// refused by its limits) is printed as it is, "FILE:LINE: reason", and becomes exit status 2.
// So does an output that must not be written (refuseOutput).

#include <QString>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "io/OutputTarget.h"

#include "limits/LimitError.h"
#include "procfs/ParseError.h"
#include "sim/Recipe.h"
#include "topology/TopologyError.h"
#include "trace/TraceError.h"

namespace immap::cli {

inline constexpr int kBadInput = 2;

template <class Fn>
int reportingBadInput(Fn&& fn) {
    try {
        return fn();
    } catch (const procfs::ParseError& e) {
        std::cerr << e.what() << '\n';
    } catch (const topology::TopologyError& e) {
        std::cerr << e.what() << '\n';
    } catch (const sim::RecipeError& e) {
        std::cerr << e.what() << '\n';
    } catch (const trace::TraceError& e) {
        std::cerr << e.what() << '\n';
    } catch (const limits::LimitError& e) {
        std::cerr << e.what() << '\n';
    }
    return kBadInput;
}

// What loaded but may not be whole (io::CutLine, a cut archive, an entry not read), one
// "warning: FILE[:LINE]: reason" line each on stderr; the exit status stays 0.
inline void printWarnings(const std::vector<std::string>& warnings) {
    for (const std::string& w : warnings)
        std::cerr << "warning: " << w << '\n';
}

// The file a source or topology spec names ("xml:F", "maps:F", "snapshot:F", "trace:F"), or the
// argument itself when it has no such prefix; "" for specs that name none (host, live, ...).
inline std::string specFile(const std::string& spec) {
    for (const char* kind : {"xml:", "maps:", "snapshot:", "trace:"}) {
        const std::string k = kind;
        if (spec.rfind(k, 0) == 0) return spec.substr(k.size());
    }
    return spec.find(':') == std::string::npos && spec != "host" && spec != "live" ? spec : "";
}

// Every output is asked before the command works: one that is not a regular file, or that is one
// of the command's inputs, is refused with "OUT: reason" and exit status 2.
inline std::optional<int> refuseOutput(const QString& out, const std::vector<std::string>& inputs) {
    const std::string why = io::OutputTarget::check(out.toStdString(), inputs);
    if (why.empty()) return std::nullopt;
    std::cerr << why << '\n';
    return kBadInput;
}

}  // namespace immap::cli
