#pragma once
// A shadow of an IntervalTree's links, colours and subtree_last values, driven only by recorded
// Changes. It is what an animation draws: stepping forward applies a step's changes, stepping
// back reverts them, and the algorithm never runs again.

#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "Node.h"
#include "StepRecorder.h"

namespace immap::itree {

class IntervalTree;

class ReplayTree {
public:
    struct NodeState {
        const Node* parent = nullptr;
        const Node* left = nullptr;
        const Node* right = nullptr;
        Color color = Color::Red;
        Index subtreeLast = 0;
    };

    ReplayTree() = default;
    // Starts from the current state of a real tree (its reachable nodes).
    explicit ReplayTree(const IntervalTree& tree);

    // Forward / backward over one step's changes. Returns false if a change's recorded old
    // (or, backwards, new) value disagrees with the shadow: the recording does not fit here.
    bool apply(std::span<const Change> changes);
    bool revert(std::span<const Change> changes);
    bool forward(const StepRecorder& rec, const Step& s) { return apply(rec.changes(s)); }
    bool backward(const StepRecorder& rec, const Step& s) { return revert(rec.changes(s)); }

    const Node* root() const { return root_; }
    const Node* leftmost() const { return leftmost_; }
    const NodeState& state(const Node* n) const;
    std::vector<const Node*> inorder() const;

    // Empty when root, leftmost and every reachable node match the real tree exactly;
    // otherwise a description of the first difference.
    std::string differenceFrom(const IntervalTree& tree) const;

private:
    std::uint64_t read(const Change& c) const;
    void write(const Change& c, std::uint64_t v);

    std::unordered_map<const Node*, NodeState> nodes_;
    const Node* root_ = nullptr;
    const Node* leftmost_ = nullptr;
};

}  // namespace immap::itree
