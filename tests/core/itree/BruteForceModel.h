#pragma once
// The obviously-correct model the tree is checked against: the in-order sequence as a plain
// vector. Insert goes after every node with start <= its start (equal starts go right),
// insert_after goes right after prev, and a query is a linear filter.

#include <algorithm>
#include <deque>
#include <random>
#include <string>
#include <vector>

#include "itree/IntervalTree.h"
#include "itree/InvariantChecker.h"

namespace immap::test {

using itree::Index;
using itree::IntervalTree;
using itree::Node;

struct TestNode : Node {
    TestNode(std::uint64_t i, Index s, Index l) : Node(s, l), id(i) {}
    std::uint64_t id;
};

class BruteForceModel {
public:
    void insert(const Node* n) {
        auto pos = std::upper_bound(seq_.begin(), seq_.end(), n->start,
                                    [](Index s, const Node* x) { return s < x->start; });
        seq_.insert(pos, n);
    }
    void insertAfter(const Node* n, const Node* prev) {
        seq_.insert(std::find(seq_.begin(), seq_.end(), prev) + 1, n);
    }
    void remove(const Node* n) { seq_.erase(std::find(seq_.begin(), seq_.end(), n)); }
    std::vector<const Node*> overlapping(Index start, Index last) const {
        std::vector<const Node*> out;
        for (const Node* n : seq_)
            if (n->start <= last && start <= n->last) out.push_back(n);
        return out;
    }
    const std::vector<const Node*>& sequence() const { return seq_; }
    std::size_t size() const { return seq_.size(); }

private:
    std::vector<const Node*> seq_;
};

// Empty when the tree satisfies every invariant and holds exactly the model's sequence.
inline std::string mismatch(const IntervalTree& t, const BruteForceModel& m) {
    const itree::CheckResult c = itree::InvariantChecker::check(t);
    if (!c.ok) return "invariant: " + c.error;
    if (t.size() != m.size())
        return "size " + std::to_string(t.size()) + " vs model " + std::to_string(m.size());
    const Node* n = t.leftmost();
    for (const Node* expected : m.sequence()) {
        if (n != expected) return "in-order sequence differs from the model";
        n = IntervalTree::next(n);
    }
    return n ? "tree has nodes past the model's end" : "";
}

inline std::vector<const Node*> query(const IntervalTree& t, Index start, Index last) {
    std::vector<const Node*> out;
    for (Node* n = t.iterFirst(start, last); n; n = IntervalTree::iterNext(n, start, last))
        out.push_back(n);
    return out;
}

// Owns test nodes; removed ones are handed out again so stale links get exercised.
class NodePool {
public:
    TestNode* make(Index start, Index last) {
        if (!free_.empty()) {
            TestNode* n = free_.back();
            free_.pop_back();
            n->start = start;
            n->last = last;
            n->id = nextId_++;
            return n;
        }
        return &all_.emplace_back(nextId_++, start, last);
    }
    void release(TestNode* n) { free_.push_back(n); }

private:
    std::deque<TestNode> all_;
    std::vector<TestNode*> free_;
    std::uint64_t nextId_ = 1;
};

}  // namespace immap::test
