#include "TreeSet.h"

#include <map>
#include <stdexcept>

namespace immap::session {

TreeSet::TreeSet(const mapping::MappedFile& file, const mapping::HostMappings& host,
                 const topology::Topology& topo, mapping::Policy split)
    : file_(&file), policy_(split), placement_(split, topo) {
    for (std::size_t i = 0; i < placement_.treeCount(); ++i)
        split_.push_back(std::make_unique<itree::IntervalTree>());
    if (split.structure == mapping::Policy::Structure::BTree) {
        bsingle_ = std::make_unique<btree::IntervalBTree>();
        for (std::size_t i = 0; i < placement_.treeCount(); ++i)
            bsplit_.push_back(std::make_unique<btree::IntervalBTree>());
    }
    for (const mapping::Vma& v : file.vmas) {
        const auto& procs = host.processes();
        const std::string comm = v.process < procs.size() ? procs[v.process].comm : "?";
        insert(v, comm);
    }
}

TreeSet::~TreeSet() = default;

const itree::IntervalTree& TreeSet::tree(TreeId t) const {
    return t == kSingleTree ? single_ : *split_.at(static_cast<std::size_t>(t - 1));
}

itree::IntervalTree& TreeSet::treeMut(TreeId t) {
    return t == kSingleTree ? single_ : *split_.at(static_cast<std::size_t>(t - 1));
}

btree::IntervalBTree& TreeSet::btreeMut(TreeId t) const {
    if (!bsingle_) throw std::logic_error("no B-trees under this policy");
    return t == kSingleTree ? *bsingle_ : *bsplit_.at(static_cast<std::size_t>(t - 1));
}

const btree::IntervalBTree& TreeSet::btree(TreeId t) const {
    return btreeMut(t);
}

int TreeSet::idOf(const btree::Item* item) {
    return static_cast<const BItem*>(item)->id;
}

void TreeSet::describe(const btree::Item* item, int& id, int& home) const {
    id = idOf(item);
    home = entry(id).vma.homeNode;
}

void TreeSet::queryBTree(TreeId t, itree::Index first, itree::Index last,
                         btree::StepHook* hook) const {
    btree::IntervalBTree& b = btreeMut(t);
    b.setStepHook(hook);
    b.forOverlapping(first, last, [](btree::Item*) {});
    b.setStepHook(nullptr);
}

std::vector<int> TreeSet::liveIds() const {
    std::vector<int> out;
    out.reserve(live_);
    for (std::size_t i = 0; i < entries_.size(); ++i)
        if (entries_[i].e.alive) out.push_back(static_cast<int>(i));
    return out;
}

std::vector<int> TreeSet::idsOfPid(std::int64_t pid) const {
    std::vector<int> out;
    for (std::size_t i = 0; i < entries_.size(); ++i)
        if (entries_[i].e.alive && entries_[i].e.vma.pid == pid) out.push_back(static_cast<int>(i));
    return out;
}

std::vector<TreeSet::PageBar> TreeSet::pageBars() const {
    std::map<std::pair<itree::Index, itree::Index>, std::size_t> counts;
    for (const Slot& s : entries_)
        if (s.e.alive) ++counts[{s.e.vma.first(), s.e.vma.last()}];
    std::vector<PageBar> out;
    out.reserve(counts.size());
    for (const auto& [range, n] : counts)
        out.push_back({range.first, range.second, n});
    return out;
}

int TreeSet::idOf(const itree::Node* n) {
    return static_cast<const TreeNode*>(n)->id;
}

TreeSet::TreeNode& TreeSet::nodeMut(int id, TreeId t) {
    Slot& s = entries_.at(static_cast<std::size_t>(id));
    return t == kSingleTree ? s.single : s.split;
}

const itree::Node* TreeSet::node(int id, TreeId t) const {
    const Slot& s = entries_.at(static_cast<std::size_t>(id));
    if (t == kSingleTree) return &s.single;
    return t == 1 + s.e.splitTree ? &s.split : nullptr;
}

int TreeSet::splitIndexFor(const mapping::Vma& v) const {
    return static_cast<int>(placement_.treeOf(v));
}

int TreeSet::add(const mapping::Vma& v, const std::string& comm) {
    const int id = static_cast<int>(entries_.size());
    Slot& s = entries_.emplace_back();
    s.e.vma = v;
    s.e.comm = comm;
    s.e.splitTree = splitIndexFor(v);
    for (TreeNode* n : {&s.single, &s.split}) {
        n->start = v.first();
        n->last = v.last();
        n->id = id;
    }
    for (BItem* b : {&s.bsingle, &s.bsplit}) {
        b->start = v.first();
        b->last = v.last();
        b->id = id;
    }
    ++live_;
    return id;
}

void TreeSet::link(int id, TreeId t, itree::StepRecorder* rec, btree::StepHook* hook) {
    TreeNode& n = nodeMut(id, t);
    if (n.linked) throw std::logic_error("VMA already in that tree");
    itree::IntervalTree& tree = treeMut(t);
    tree.setRecorder(rec);
    tree.insert(&n);
    tree.setRecorder(nullptr);
    n.linked = true;
    updateBTree(id, t, true, hook);
}

void TreeSet::updateBTree(int id, TreeId t, bool insert, btree::StepHook* hook) {
    if (!bsingle_) return;
    Slot& s = entries_.at(static_cast<std::size_t>(id));
    BItem* item = t == kSingleTree ? &s.bsingle : &s.bsplit;
    btree::IntervalBTree& b = btreeMut(t);
    b.setStepHook(hook);
    if (insert)
        b.insert(item);
    else
        b.remove(item);
    b.setStepHook(nullptr);
}

void TreeSet::unlink(int id, TreeId t, itree::StepRecorder* rec, btree::StepHook* hook) {
    TreeNode& n = nodeMut(id, t);
    if (!n.linked) throw std::logic_error("VMA not in that tree");
    itree::IntervalTree& tree = treeMut(t);
    tree.setRecorder(rec);
    tree.remove(&n);
    tree.setRecorder(nullptr);
    n.linked = false;
    updateBTree(id, t, false, hook);
}

void TreeSet::markDead(int id) {
    VmaEntry& e = entries_.at(static_cast<std::size_t>(id)).e;
    if (e.alive) --live_;
    e.alive = false;
}

int TreeSet::insert(const mapping::Vma& v, const std::string& comm) {
    const int id = add(v, comm);
    link(id, kSingleTree, nullptr);
    link(id, splitTreeId(id), nullptr);
    return id;
}

void TreeSet::remove(int id) {
    unlink(id, kSingleTree, nullptr);
    unlink(id, splitTreeId(id), nullptr);
    markDead(id);
}

}  // namespace immap::session
