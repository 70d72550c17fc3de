#pragma once
// The B-tree index, the kernel's rbtree (core/itree) and the obviously-correct model (the
// in-order sequence as a vector) driven by the same ops. After every op the B-tree's
// invariants are checked from scratch and its in-order sequence compared with the model's;
// every few ops an overlap query must give the model's linear filter and the rbtree's
// iteration, item for item and in the same order.

#include <algorithm>
#include <deque>
#include <random>
#include <string>
#include <vector>

#include "btree/BTreeChecker.h"
#include "btree/IntervalBTree.h"
#include "itree/IntervalTree.h"

namespace immap::test {

using btree::Index;

struct BItem : btree::Item {
    std::uint64_t id = 0;
};
struct RbNode : itree::Node {
    std::uint64_t id = 0;
};
// One VMA in both structures.
struct Vma {
    std::uint64_t id = 0;
    Index start = 0, last = 0;
    BItem b;
    RbNode rb;
};

class BTreeHarness {
public:
    btree::IntervalBTree tree;
    itree::IntervalTree rb;
    std::vector<const Vma*> model;  // in order
    std::vector<Vma*> live;
    std::mt19937_64 rng;
    std::size_t ops = 0;
    std::size_t queryEvery = 4;
    Index spanHint = 1000;
    std::string failure;

    explicit BTreeHarness(std::uint64_t seed) : rng(seed) {}

    Index uniform(Index lo, Index hi) { return std::uniform_int_distribution<Index>(lo, hi)(rng); }

    Vma* insert(Index start, Index last) {
        Vma* v = make(start, last);
        tree.insert(&v->b);
        rb.insert(&v->rb);
        const auto pos = std::upper_bound(model.begin(), model.end(), start,
                                          [](Index s, const Vma* x) { return s < x->start; });
        model.insert(pos, v);
        live.push_back(v);
        return v;
    }
    // A fork's copy right after its parent's VMA.
    Vma* insertAfter(Vma* prev) {
        Vma* v = make(prev->start, prev->last);
        if (!tree.insertAfter(&v->b, &prev->b)) failure = "insertAfter refused a fork copy";
        if (!rb.insertAfter(&v->rb, &prev->rb)) failure = "the rbtree refused a fork copy";
        model.insert(std::find(model.begin(), model.end(), prev) + 1, v);
        live.push_back(v);
        return v;
    }
    void removeAt(std::size_t i) {
        Vma* v = live[i];
        live[i] = live.back();
        live.pop_back();
        tree.remove(&v->b);
        rb.remove(&v->rb);
        model.erase(std::find(model.begin(), model.end(), v));
        free_.push_back(v);
    }
    void remove(const Vma* v) {
        removeAt(static_cast<std::size_t>(std::find(live.begin(), live.end(), v) - live.begin()));
    }
    std::vector<const Vma*> sequence() const { return model; }

    std::vector<std::uint64_t> btreeQuery(Index a, Index b) const {
        std::vector<std::uint64_t> out;
        tree.forOverlapping(a, b,
                            [&](btree::Item* it) { out.push_back(static_cast<BItem*>(it)->id); });
        return out;
    }
    std::vector<std::uint64_t> rbQuery(Index a, Index b) const {
        std::vector<std::uint64_t> out;
        for (itree::Node* n = rb.iterFirst(a, b); n; n = itree::IntervalTree::iterNext(n, a, b))
            out.push_back(static_cast<RbNode*>(n)->id);
        return out;
    }
    std::vector<std::uint64_t> modelQuery(Index a, Index b) const {
        std::vector<std::uint64_t> out;
        for (const Vma* v : model)
            if (v->start <= b && a <= v->last) out.push_back(v->id);
        return out;
    }

    // After one op: false (with `failure` set) at the first disagreement.
    bool check() {
        ++ops;
        if (failure.empty()) {
            const btree::BTreeCheck c = btree::BTreeChecker::check(tree);
            if (!c.ok) failure = "invariant: " + c.error;
        }
        if (failure.empty()) {
            std::size_t i = 0;
            tree.forEach([&](btree::Item* it) {
                if (i >= model.size() || model[i]->id != static_cast<BItem*>(it)->id)
                    failure = "in-order sequence differs from the model";
                ++i;
            });
            if (failure.empty() && i != model.size()) failure = "size differs from the model";
        }
        if (failure.empty() && ops % queryEvery == 0) {
            Index a = uniform(0, spanHint), b = uniform(0, spanHint);
            if (a > b) std::swap(a, b);
            if (uniform(0, 3) == 0) b = a;  // a point query, as an rmap walk of one page
            const auto expected = modelQuery(a, b);
            if (btreeQuery(a, b) != expected)
                failure = "query [" + std::to_string(a) + ", " + std::to_string(b) +
                          "] differs from the model";
            else if (rbQuery(a, b) != expected)
                failure = "query differs from the rbtree's";
        }
        if (!failure.empty()) failure += " (after op " + std::to_string(ops) + ")";
        return failure.empty();
    }

private:
    Vma* make(Index start, Index last) {
        Vma* v = nullptr;
        if (!free_.empty()) {
            v = free_.back();
            free_.pop_back();
        } else {
            v = &all_.emplace_back();
        }
        v->id = nextId_++;
        v->start = v->b.start = v->rb.start = start;
        v->last = v->b.last = v->rb.last = last;
        v->b.id = v->rb.id = v->id;
        return v;
    }
    std::deque<Vma> all_;
    std::vector<Vma*> free_;
    std::uint64_t nextId_ = 1;
};

}  // namespace immap::test
