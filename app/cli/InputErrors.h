#pragma once
// Bad input anywhere below a command (an io::InputError, whichever reader threw it, or a request
// refused by its limits) is printed as it is, "FILE:LINE: reason", and becomes exit status 2.
// So does an output that must not be written (refuseOutput).

#include <QString>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "io/InputError.h"
#include "io/InputFile.h"
#include "io/OutputTarget.h"

#include "limits/LimitError.h"

namespace immap::cli {

inline constexpr int kBadInput = 2;

template <class Fn>
int reportingBadInput(Fn&& fn) {
    try {
        return fn();
    } catch (const io::InputError& e) {  // every reader's located error
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

// Every output is asked before the command works: one that is not a regular file, or that is one
// of the command's inputs, is refused with "OUT: reason" and exit status 2.
inline std::optional<int> refuseOutput(const QString& out, const std::vector<std::string>& inputs) {
    const std::string why = io::OutputTarget::check(out.toStdString(), inputs);
    if (why.empty()) return std::nullopt;
    std::cerr << why << '\n';
    return kBadInput;
}

// Several outputs of one command: each must be writable (refuseOutput), and no two may name the
// same file, or the second write would silently replace the first (io::OutputTarget::checkAll).
inline std::optional<int> refuseOutputs(const std::vector<std::pair<QString, QString>>& outs,
                                        const std::vector<std::string>& inputs) {
    std::vector<std::pair<std::string, std::string>> named;
    for (const auto& [option, path] : outs)
        named.emplace_back(option.toStdString(), path.toStdString());
    const std::string why = io::OutputTarget::checkAll(named, inputs);
    if (why.empty()) return std::nullopt;
    std::cerr << why << '\n';
    return kBadInput;
}

}  // namespace immap::cli
