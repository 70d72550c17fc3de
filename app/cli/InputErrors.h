#pragma once
// Bad input anywhere below a command (a located ParseError or TopologyError, or a request
// refused by its limits) is printed as it is, "FILE:LINE: reason", and becomes exit status 2.

#include <iostream>

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

}  // namespace immap::cli
