#pragma once
// One file's i_mmap as mutable trees: the single tree and the trees of a split policy, holding
// the same VMAs. Unlike mapping::FileMapping (a read-only picture) it takes inserts and removes,
// optionally recorded step by step, so that exec/exit and the animation can change it. When the
// policy's structure is the B-tree (issue 20: "btree", "btree+split-trees"), each tree also has
// its B-tree index over the same VMAs, updated with it: the views draw those, while the rbtrees
// stay for everything else (the rmap walk's kernel picture, the table).

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "btree/IntervalBTree.h"
#include "itree/IntervalTree.h"
#include "itree/StepRecorder.h"
#include "mapping/FileMapping.h"
#include "mapping/HostMappings.h"
#include "mapping/Policy.h"
#include "mapping/TreePlacement.h"

namespace immap::session {

// A tree of the set: 0 is the single tree, 1 + i the split policy's tree i.
using TreeId = int;
inline constexpr TreeId kSingleTree = 0;

struct VmaEntry {
    mapping::Vma vma;
    std::string comm;
    bool alive = true;
    int splitTree = 0;  // which split tree holds it
};

class TreeSet {
public:
    // The VMAs go in in snapshot order, as FileMapping inserts them, so the shapes are the same.
    TreeSet(const mapping::MappedFile& file, const mapping::HostMappings& host,
            const topology::Topology& topo, mapping::Policy split);
    TreeSet(const TreeSet&) = delete;
    TreeSet& operator=(const TreeSet&) = delete;
    ~TreeSet();

    const mapping::MappedFile& file() const { return *file_; }
    const mapping::Policy& splitPolicy() const { return policy_; }
    std::size_t splitCount() const { return split_.size(); }
    std::size_t treeCount() const { return 1 + split_.size(); }
    const itree::IntervalTree& tree(TreeId t) const;
    bool hasBTrees() const { return bsingle_ != nullptr; }
    const btree::IntervalBTree& btree(TreeId t) const;
    static int idOf(const btree::Item* item);
    // An item's entry id and home node: what a picture of a B-tree (DrawBTree) shows of it.
    void describe(const btree::Item* item, int& id, int& home) const;
    // A query of B-tree t for [first, last], reporting its steps to `hook`; the index is not
    // changed.
    void queryBTree(TreeId t, itree::Index first, itree::Index last, btree::StepHook* hook) const;

    // Entry ids are stable for the set's lifetime; removed entries stay (alive = false) so that
    // recordings and selections that name them stay valid.
    std::size_t entryCount() const { return entries_.size(); }
    const VmaEntry& entry(int id) const { return entries_[static_cast<std::size_t>(id)].e; }
    std::size_t liveCount() const { return live_; }
    std::vector<int> liveIds() const;
    std::vector<int> idsOfPid(std::int64_t pid) const;  // live ones
    static int idOf(const itree::Node* n);
    const itree::Node* node(int id, TreeId t) const;  // null if the VMA is not in tree t
    TreeId splitTreeId(int id) const { return 1 + entry(id).splitTree; }

    // The live VMAs' distinct page ranges with how many VMAs share each, by first page: what a
    // page axis draws (libc's thousands of VMAs are five ranges).
    struct PageBar {
        itree::Index first = 0, last = 0;
        std::size_t count = 0;
    };
    std::vector<PageBar> pageBars() const;

    // Which split tree a new VMA goes to (the policy's rule, as FileMapping places them).
    int splitIndexFor(const mapping::Vma& v) const;

    // Inserts into the single tree then its split tree, unrecorded; returns the new id.
    int insert(const mapping::Vma& v, const std::string& comm);
    void remove(int id);
    // The same, one tree at a time (the animation runs the single tree's ops, then the splits').
    int add(const mapping::Vma& v, const std::string& comm);  // stored, in no tree yet
    // The B-tree of t too, when there are B-trees, its steps reported to `hook` if given.
    void link(int id, TreeId t, itree::StepRecorder* rec, btree::StepHook* hook = nullptr);
    void unlink(int id, TreeId t, itree::StepRecorder* rec, btree::StepHook* hook = nullptr);
    void markDead(int id);

private:
    struct TreeNode : itree::Node {
        int id = 0;
        bool linked = false;
    };
    struct BItem : btree::Item {
        int id = 0;
    };
    struct Slot {
        VmaEntry e;
        TreeNode single;
        TreeNode split;
        BItem bsingle;
        BItem bsplit;
    };
    itree::IntervalTree& treeMut(TreeId t);
    btree::IntervalBTree& btreeMut(TreeId t) const;
    // The VMA into or out of tree t's B-tree, when there are B-trees.
    void updateBTree(int id, TreeId t, bool insert, btree::StepHook* hook);
    TreeNode& nodeMut(int id, TreeId t);

    const mapping::MappedFile* file_;
    mapping::Policy policy_;
    mapping::TreePlacement placement_;
    std::deque<Slot> entries_;
    std::size_t live_ = 0;
    itree::IntervalTree single_;
    std::vector<std::unique_ptr<itree::IntervalTree>> split_;
    std::unique_ptr<btree::IntervalBTree> bsingle_;  // null unless the structure is the B-tree
    std::vector<std::unique_ptr<btree::IntervalBTree>> bsplit_;
};

}  // namespace immap::session
