#pragma once
// Bad trace input or a trace that cannot be written, located as every reader's errors are
// (io::InputError).

#include "io/InputError.h"

namespace immap::trace {

class TraceError : public io::InputError {
public:
    using io::InputError::InputError;
};

}  // namespace immap::trace
