#pragma once
// The `distances=` option of a synthetic topology spec, in SLIT units (docs/kernel.md, "5.2 SLIT
// distances"): either the full N x N matrix, row-major, comma-separated ("10,20,20,10"), or the
// shorthand LOCAL:SAMEPKG:REMOTE ("10:12:32") expanded from each node's package.

#include <string_view>
#include <vector>

namespace immap::topology {

class DistanceSpec {
public:
    // Throws TopologyError (reason only) on a malformed list.
    static DistanceSpec parse(std::string_view text);

    // The matrix for nodes whose logical packages are nodePackage[i] (-1 for none: such nodes
    // count as one package). Throws TopologyError (reason only) on a wrong size, a diagonal
    // other than 10, or an entry outside 10..255.
    std::vector<std::vector<unsigned>> matrix(const std::vector<int>& nodePackage) const;

private:
    bool shorthand_ = false;
    std::vector<unsigned long> values_;  // LOCAL, SAMEPKG, REMOTE or the N*N entries
};

}  // namespace immap::topology
