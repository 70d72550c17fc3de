#pragma once
// The primitive steps of one tree update, recorded as the algorithm runs so that an animation
// can replay them forwards and backwards without running the algorithm again. Every write the
// tree makes is a Change carrying both the old and the new value; a Step groups the changes of
// one primitive (a rotation, a recolouring, a subtree_last update) under the kernel function
// and case that made it.

#include <cstdint>
#include <span>
#include <vector>

#include "Node.h"

namespace immap::itree {

enum class Field : std::uint8_t {
    Parent,       // node's parent pointer
    Left,         // node's left child
    Right,        // node's right child
    Color,        // node's colour (0 red, 1 black)
    SubtreeLast,  // node's augmented max
    Root,         // the tree's root pointer (node is null)
    Leftmost,     // the tree's cached leftmost node (node is null)
};

struct Change {
    const Node* node = nullptr;
    Field field = Field::Parent;
    std::uint64_t before = 0;  // pointers are stored as their address
    std::uint64_t after = 0;
    // A field of a node being linked: its old value is whatever the caller's memory held
    // (a fresh or reused node), so a replay overwrites it without checking it.
    bool init = false;
};

enum class Op : std::uint8_t { Insert, InsertAfter, Remove };

enum class StepKind : std::uint8_t {
    Begin,      // a: the node being inserted or removed
    Descend,    // a: node compared against; detail 0 = went left, 1 = went right
    Link,       // a: new node, b: its parent (null at the root); detail 0 left, 1 right
    Leftmost,   // the leftmost cache moved; a: new leftmost
    FixupCase,  // insert or erase-colour fix-up case taken; detail = case number (0 = done)
    Recolor,    // colour changes only; a: first node recoloured
    Rotate,     // a: node rotated at (old subtree top), b: new top; detail 0 left, 1 right
    Augment,    // a subtree_last write; a: node; detail: AugmentKind
    EraseCase,  // __rb_erase_augmented case; detail 1, 2 or 3; a: removed node, b: successor
    Splice,     // a child pointer moved: a replaced by b in a's parent (or as root)
};

enum class AugmentKind : std::uint8_t {
    Raise,      // raised on the way down during insert / insert_after
    Rotate,     // augment->rotate after a rotation
    Copy,       // augment->copy: successor inherits the erased node's value
    Propagate,  // augment->propagate climbing towards the root
    Init,       // the new node's own value before linking
};

struct Step {
    Op op = Op::Insert;
    StepKind kind = StepKind::Begin;
    std::uint8_t detail = 0;
    const char* function = "";  // the kernel function that performs this step
    const Node* a = nullptr;
    const Node* b = nullptr;
    std::uint32_t firstChange = 0;
    std::uint32_t changeCount = 0;
};

class StepRecorder {
public:
    void clear() {
        steps_.clear();
        changes_.clear();
    }
    const std::vector<Step>& steps() const { return steps_; }
    std::span<const Change> changes(const Step& s) const {
        return {changes_.data() + s.firstChange, s.changeCount};
    }
    std::size_t changeTotal() const { return changes_.size(); }

    // Called by the tree while it works.
    void step(Op op, StepKind kind, const char* function, const Node* a, const Node* b = nullptr,
              std::uint8_t detail = 0) {
        steps_.push_back(
            Step{op, kind, detail, function, a, b, static_cast<std::uint32_t>(changes_.size()), 0});
    }
    void change(const Node* node, Field field, std::uint64_t before, std::uint64_t after) {
        if (before != after) push(Change{node, field, before, after, false});
    }
    void changeInit(const Node* node, Field field, std::uint64_t before, std::uint64_t after) {
        push(Change{node, field, before, after, true});
    }

private:
    void push(const Change& c) {
        changes_.push_back(c);
        ++steps_.back().changeCount;
    }

    std::vector<Step> steps_;
    std::vector<Change> changes_;
};

}  // namespace immap::itree
