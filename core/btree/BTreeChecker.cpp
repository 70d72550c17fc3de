#include "BTreeChecker.h"

#include <algorithm>
#include <limits>

namespace immap::btree {

namespace {

struct Walk {
    const IntervalBTree& tree;
    std::string error;
    std::size_t items = 0, leaves = 0, inners = 0;
    Index lastStart = 0;
    bool any = false;

    bool fail(const std::string& e) {
        if (error.empty()) error = e;
        return false;
    }
    // Checks the subtree; sets lo/hi (its smallest and largest start) and mx (its max last).
    bool node(const void* n, int level, const Inner* parent, bool root, Index& lo, Index& hi,
              Index& mx) {
        if (level == 1) {
            const auto* l = static_cast<const Leaf*>(n);
            ++leaves;
            if (l->parent != parent) return fail("leaf's parent pointer is wrong");
            if (l->count < (root ? 1 : kMinFill) || l->count > kFanout)
                return fail("leaf fill " + std::to_string(l->count));
            mx = 0;
            for (int i = 0; i < l->count; ++i) {
                const Item* it = l->item[i];
                if (!it || it->leaf() != l) return fail("item's back pointer is wrong");
                if (it->start != l->start[i] || it->last != l->last[i])
                    return fail("leaf's copy of an interval differs from its item");
                if (l->start[i] > l->last[i]) return fail("interval with start > last");
                if (any && l->start[i] < lastStart) return fail("starts out of order");
                lastStart = l->start[i];
                any = true;
                mx = std::max(mx, l->last[i]);
                ++items;
            }
            if (l->max != mx) return fail("leaf's header max is not its max last");
            lo = l->start[0];
            hi = l->start[l->count - 1];
            return true;
        }
        const auto* in = static_cast<const Inner*>(n);
        ++inners;
        if (in->parent != parent) return fail("inner node's parent pointer is wrong");
        if (in->leaves != (level == 2)) return fail("inner node's leaves flag is wrong");
        if (in->count < (root ? 2 : kMinFill) || in->count > kFanout)
            return fail("inner fill " + std::to_string(in->count));
        mx = 0;
        Index prevHi = 0;
        for (int i = 0; i < in->count; ++i) {
            Index clo = 0, chi = 0, cmx = 0;
            if (!node(in->child[i], level - 1, in, false, clo, chi, cmx)) return false;
            if (in->maxLast[i] != cmx) return fail("max-last is not its subtree's max");
            if (i > 0 && (prevHi > in->sep[i] || clo < in->sep[i]))
                return fail("separator does not bound its children");
            if (i == 0) lo = clo;
            prevHi = chi;
            mx = std::max(mx, cmx);
        }
        if (in->max != mx) return fail("inner node's header max is not its max last");
        hi = prevHi;
        return true;
    }
};

}  // namespace

BTreeCheck BTreeChecker::check(const IntervalBTree& t) {
    BTreeCheck r;
    if (!t.root_) {
        if (t.size_ || t.height_ || t.leaves_ || t.inners_) {
            r.ok = false;
            r.error = "empty index with nonzero counts";
        }
        return r;
    }
    Walk w{t, {}, 0, 0, 0, 0, false};
    Index lo = 0, hi = 0, mx = 0;
    if (!w.node(t.root_, t.height_, nullptr, true, lo, hi, mx)) {
        r.ok = false;
        r.error = w.error;
        return r;
    }
    if (w.items != t.size_ || w.leaves != t.leaves_ || w.inners != t.inners_) {
        r.ok = false;
        r.error = "counts differ: " + std::to_string(w.items) + " items, " +
                  std::to_string(w.leaves) + " leaves, " + std::to_string(w.inners) + " inner";
    }
    return r;
}

}  // namespace immap::btree
