#pragma once
// Bad /proc input (maps, numa_maps, status, stat, a snapshot), located as every reader's
// errors are (io::InputError).

#include "io/InputError.h"

namespace immap::procfs {

class ParseError : public io::InputError {
public:
    using io::InputError::InputError;
};

}  // namespace immap::procfs
