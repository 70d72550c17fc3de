#pragma once
// The op-script language of `immap tree run` (one op per line; numbers decimal or 0x hex; `#`
// starts a comment):
//   i ID START LAST   insert node ID with the closed interval [START, LAST]
//   r ID              remove node ID (an ID may be reused after removal)
//   q START LAST      print the IDs of the nodes overlapping [START, LAST], in iteration order
//   d                 print the tree in preorder as ID:COLOR:SUBTREE_LAST, `.` for a null child
// This file only parses; ScriptRunner executes.

#include <cstdint>
#include <string>
#include <string_view>

#include "Node.h"

namespace immap::itree {

struct ScriptOp {
    enum class Kind : std::uint8_t { None, Insert, Remove, Query, Dump };
    Kind kind = Kind::None;  // None: a blank or comment-only line
    std::uint64_t id = 0;
    Index start = 0;
    Index last = 0;
};

class OpScript {
public:
    // Parses one line. On failure returns false with the reason in `error`.
    static bool parseLine(std::string_view line, ScriptOp& op, std::string& error);
    // Parses a decimal or 0x-hex unsigned 64-bit number; the whole token must be the number.
    static bool parseNumber(std::string_view token, std::uint64_t& value, std::string& error);
};

}  // namespace immap::itree
