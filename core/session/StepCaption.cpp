#include "StepCaption.h"

#include <cstdio>
#include <string_view>

namespace immap::session {

std::string StepCaption::hex(std::uint64_t v) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
    return buf;
}

namespace {

bool isInsertColor(const itree::Step& s) {
    return std::string_view(s.function) == "__rb_insert";
}

}  // namespace

std::string StepCaption::nodeName(const TreeSet& set, const itree::Node* n) {
    if (!n) return "nothing";
    const VmaEntry& e = set.entry(TreeSet::idOf(n));
    return "pid " + std::to_string(e.vma.pid) + " [" + hex(n->start) + ", " + hex(n->last) + "]";
}

std::string StepCaption::treeName(const TreeSet& set, TreeId tree) {
    if (tree == kSingleTree) return "single tree";
    const char* what =
        set.splitPolicy().kind == mapping::Policy::Kind::Sharded ? "shard " : "node ";
    return std::string(what) + std::to_string(tree - 1) + " tree";
}

std::string StepCaption::caseText(const itree::Step& s) {
    using itree::StepKind;
    if (s.kind == StepKind::EraseCase) {
        switch (s.detail) {
            case 1:
                return "erase case 1 (at most one child)";
            case 2:
                return "erase case 2 (successor is the right child)";
            default:
                return "erase case 3 (successor is leftmost of the right subtree)";
        }
    }
    if (isInsertColor(s)) {
        switch (s.detail) {
            case 0:
                return "insert fix-up done";
            case 1:
                return "insert fix-up, case 1 (red uncle)";
            case 2:
                return "insert fix-up, case 2 (inner child)";
            default:
                return "insert fix-up, case 3 (outer child)";
        }
    }
    switch (s.detail) {
        case 1:
            return "erase fix-up, case 1 (red sibling)";
        case 2:
            return "erase fix-up, case 2 (black sibling, black children)";
        case 3:
            return "erase fix-up, case 3 (near nephew red)";
        case 4:
            return "erase fix-up, case 4 (far nephew red)";
        default:
            return "erase fix-up done";
    }
}

std::string StepCaption::text(const TreeSet& set, TreeId tree, const itree::Step& s,
                              const itree::Step* context) {
    using itree::StepKind;
    const std::string where = treeName(set, tree) + ", " + s.function + ": ";
    const std::string a = nodeName(set, s.a);
    const std::string prefix = context ? caseText(*context) + ": " : std::string();
    switch (s.kind) {
        case StepKind::Begin:
            if (s.op == itree::Op::Remove) return where + "remove " + a;
            return where + "insert " + a;
        case StepKind::Descend:
            return where + "compare with " + a + ", go " + (s.detail ? "right" : "left") +
                   " (raising subtree_last on the way)";
        case StepKind::Link:
            if (!s.b) return where + "link as the root";
            return where + "link as " + (s.detail ? "right" : "left") + " child of " +
                   nodeName(set, s.b);
        case StepKind::Leftmost:
            return where + "leftmost cache now " + a;
        case StepKind::FixupCase:
            return where + caseText(s) + " at " + a;
        case StepKind::Recolor:
            return where + prefix + "recolour from " + a;
        case StepKind::Rotate:
            return where + prefix + "rotate " + (s.detail ? "right" : "left") + " at " + a + ", " +
                   nodeName(set, s.b) + " comes up";
        case StepKind::Augment: {
            static const char* kinds[] = {"raised on the way down", "after rotation",
                                          "copied to the successor", "propagated upwards",
                                          "the new node's own last"};
            const char* k = s.detail < 5 ? kinds[s.detail] : "";
            return where + prefix + "subtree_last of " + a + " updated (" + k + ")";
        }
        case StepKind::EraseCase:
            return where + caseText(s) + ": " + a +
                   (s.b ? ", successor " + nodeName(set, s.b) : std::string());
        case StepKind::Splice:
            return where + prefix + "replace " + a + " by " + nodeName(set, s.b);
    }
    return where;
}

}  // namespace immap::session
