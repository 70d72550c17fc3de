#pragma once
// Bad topology input, located as every reader's errors are (io::InputError); the file is the
// XML file for xml:FILE and "topology spec 'SPEC'" otherwise, empty until the loader locates
// it. Everything in core/topology throws this on bad input.

#include <string>

#include "io/InputError.h"

namespace immap::topology {

class TopologyError : public io::InputError {
public:
    using io::InputError::InputError;
    TopologyError(std::string where, std::string reason)
        : io::InputError(std::move(where), 0, std::move(reason)) {}
    const std::string& where() const { return file(); }
};

}  // namespace immap::topology
