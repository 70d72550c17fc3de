#pragma once
// GraphViz DOT of a FileMapping's trees, written with Boost.Graph's writer: one vertex per VMA
// (filled red or black, labelled with pid and pgoff interval), edges parent -> child, and per
// tree a box naming it (tree index, VMA count) pointing at its root.

#include <string>

namespace immap::mapping {

class FileMapping;

class TreeDot {
public:
    static std::string write(const FileMapping& mapping);
};

}  // namespace immap::mapping
