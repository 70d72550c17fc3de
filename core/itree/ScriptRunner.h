#pragma once
// Executes op scripts (OpScript.h) on an IntervalTree, owning one node per live ID, and prints
// what q and d ask for in the exact format of the kernel reference outputs.

#include <istream>
#include <memory>
#include <ostream>
#include <string>
#include <unordered_map>
#include <vector>

#include "IntervalTree.h"
#include "OpScript.h"

namespace immap::itree {

class ScriptRunner {
public:
    // A tree node that knows its script ID.
    struct ScriptNode : Node {
        ScriptNode(std::uint64_t i, Index s, Index l) : Node(s, l), id(i) {}
        std::uint64_t id;
    };

    explicit ScriptRunner(std::ostream& out) : out_(out) {}

    // Executes one parsed op. On a semantic error (insert of a live ID, remove of an unknown
    // one) returns false with the reason and leaves the tree unchanged.
    bool execute(const ScriptOp& op, std::string& error);

    // Parses and executes a whole script, line by line. On the first bad line writes
    // `NAME:LINE: reason` to `err` and returns false; output up to that line stays written.
    // A last line without its newline that runs is kept in warnings() (io::CutLine).
    bool run(std::istream& in, const std::string& name, std::ostream& err);

    // "NAME:LINE: the last line has no newline; ..." from run(), for the caller to show.
    const std::vector<std::string>& warnings() const { return warnings_; }

    void dump(std::ostream& out) const;
    const IntervalTree& tree() const { return tree_; }
    IntervalTree& tree() { return tree_; }
    const ScriptNode* find(std::uint64_t id) const;

private:
    std::ostream& out_;
    IntervalTree tree_;
    std::unordered_map<std::uint64_t, std::unique_ptr<ScriptNode>> live_;
    std::vector<std::string> warnings_;
};

}  // namespace immap::itree
