#include "sim/AddressSpace.h"

#include <algorithm>

namespace immap::sim {

SimVma* AddressSpace::allocate(std::int32_t file) {
    SimVma* v;
    if (!free_.empty()) {
        v = free_.back();
        free_.pop_back();
    } else {
        v = &pool_.emplace_back();
    }
    v->file = file;
    v->id = nextId_ ? (*nextId_)++ : 0;
    // A new vm_area_struct's line: the simulator gives it to the CPU that initialises it.
    v->line.reset();
    v->owner = owner_;
    v->home = home_;
    v->tree = file < static_cast<std::int32_t>(treeOf_.size()) ? treeOf_[file] : 0;
    return v;
}

void AddressSpace::pushHold(Plan& plan, Hold::Kind kind, std::int32_t file, std::uint32_t firstOp,
                            bool store, bool anonVma) {
    Hold h;
    h.kind = kind;
    h.store = store;
    h.anonVma = anonVma;
    h.file = file;
    h.firstOp = firstOp;
    h.opCount = static_cast<std::uint32_t>(plan.ops.size()) - firstOp;
    plan.actions.push_back({Action::Locked, static_cast<std::uint32_t>(plan.holds.size()), 0});
    plan.holds.push_back(h);
}

void AddressSpace::insertOp(Plan& plan, SimVma* vma, std::uint64_t pgoff, std::uint64_t pages) {
    TreeOp op;
    op.kind = TreeOp::Insert;
    op.vma = vma;
    op.start = pgoff;
    op.last = pgoff + pages - 1;
    plan.ops.push_back(op);
}

std::vector<AddressSpace::Segment> AddressSpace::segments() const {
    std::vector<Segment> out;
    out.reserve(segs_.size());
    for (const auto& [start, seg] : segs_)
        out.push_back(seg);
    return out;
}

AddressSpace::Segments::iterator AddressSpace::firstEndingAfter(std::uint64_t page) {
    auto it = segs_.upper_bound(page);  // the first starting after it
    if (it != segs_.begin() && std::prev(it)->second.end > page) --it;
    return it;
}

AddressSpace::Segments::iterator AddressSpace::split(Segments::iterator it, std::uint64_t at,
                                                     bool newBelow, const BatchRule& batch,
                                                     Plan& plan) {
    const Segment seg = it->second;
    SimVma* piece = allocate(seg.file);
    piece->home = seg.vma->home;  // split pieces inherit the tree (and home) of the original
    piece->tree = seg.vma->tree;
    const std::uint32_t first = static_cast<std::uint32_t>(plan.ops.size());
    Segment lower = seg, upper = seg;
    lower.end = at;
    upper.start = at;
    upper.pgoff = seg.pgoff + (at - seg.start);
    if (newBelow) {
        lower.vma = piece;
    } else {
        upper.vma = piece;
    }
    const Segment& fresh = newBelow ? lower : upper;
    const Segment& kept = newBelow ? upper : lower;
    // vma_prepare (mm/vma.c) links the new piece and takes the old one out; vma_complete puts
    // it back with its new range, stores the piece in the maple tree (vma_iter_store) and
    // counts it (map_count++); a VMA with an anon_vma also has anon_vma_lock_write held
    // across. One write hold; under split-locks the v2 vma_prepare links the piece under its
    // own tree's lock and drops it first, then locks the VMA's tree for the rest.
    insertOp(plan, piece, fresh.pgoff, fresh.end - fresh.start);
    std::uint32_t second = first;
    if (batch.splitTwoHolds) {
        pushHold(plan, Hold::Split, seg.file, first);
        second = static_cast<std::uint32_t>(plan.ops.size());
    }
    TreeOp rm;
    rm.kind = TreeOp::Remove;
    rm.vma = seg.vma;
    plan.ops.push_back(rm);
    insertOp(plan, seg.vma, kept.pgoff, kept.end - kept.start);
    pushHold(plan, Hold::Split, seg.file, second, true, seg.accounted);
    it->second = lower;
    return segs_.emplace_hint(std::next(it), at, upper);
}

void AddressSpace::unlinkBatched(const std::vector<Segment>& gone, const BatchRule& batch,
                                 Plan& plan) {
    std::size_t i = 0;
    while (i < gone.size()) {
        const std::uint32_t first = static_cast<std::uint32_t>(plan.ops.size());
        const std::int32_t file = gone[i].file;
        const unsigned cap = batch.perVma ? 1u : std::max(1u, batch.maxPerHold);
        unsigned n = 0;
        while (i < gone.size() && gone[i].file == file && n < cap) {
            TreeOp rm;
            rm.kind = TreeOp::Remove;
            rm.release = true;
            rm.vma = gone[i].vma;
            plan.ops.push_back(rm);
            ++i;
            ++n;
        }
        pushHold(plan, Hold::Unlink, file, first);
    }
}

void AddressSpace::unmap(std::uint64_t start, std::uint64_t end, const BatchRule& batch,
                         Plan& plan) {
    // Split the VMA straddling the start (new piece below) and the one straddling the end
    // (new piece above), as vms_gather_munmap_vmas does; then everything inside goes.
    auto first = firstEndingAfter(start);
    if (first != segs_.end() && first->second.start < start)
        first = split(first, start, true, batch, plan);
    auto last = firstEndingAfter(end);
    if (last != segs_.end() && last->second.start < end) split(last, end, false, batch, plan);
    // The segments inside are now exactly those from the one starting at or after `start` to
    // the one starting at `end` or later.
    const auto from = segs_.lower_bound(start);
    const auto to = segs_.lower_bound(end);
    std::vector<Segment> gone;
    for (auto it = from; it != to; ++it)
        gone.push_back(it->second);
    segs_.erase(from, to);
    unlinkBatched(gone, batch, plan);
}

void AddressSpace::map(std::int32_t file, std::uint64_t start, std::uint64_t end,
                       std::uint64_t pgoff, std::uint8_t prot, const BatchRule& batch, Plan& plan) {
    if (mergeNew(file, start, end, pgoff, prot, batch, plan)) return;
    SimVma* vma = allocate(file);
    const std::uint32_t first = static_cast<std::uint32_t>(plan.ops.size());
    insertOp(plan, vma, pgoff, end - start);
    pushHold(plan, Hold::Map, file, first);
    segs_.emplace(start, Segment{start, end, file, pgoff, prot, (prot & kProtWrite) != 0, vma});
}

bool AddressSpace::mergeNew(std::int32_t file, std::uint64_t start, std::uint64_t end,
                            std::uint64_t pgoff, std::uint8_t prot, const BatchRule& batch,
                            Plan& plan) {
    // can_vma_merge_after/before (mm/vma.c): the same file, the same vm_flags (here the
    // protection and VM_ACCOUNT, which a private writable mapping gets in __mmap_region),
    // adjacent addresses and contiguous file offsets. The new mapping has no anon_vma, and a
    // copy's VMAs were never inherited by fork, so is_mergeable_anon_vma always agrees.
    const bool accounted = (prot & kProtWrite) != 0;
    const auto next = segs_.lower_bound(start);
    const auto prev = next == segs_.begin() ? segs_.end() : std::prev(next);
    auto compatible = [&](const Segment& s) {
        return s.file == file && s.prot == prot && s.accounted == accounted;
    };
    const bool left = prev != segs_.end() && prev->second.end == start &&
                      compatible(prev->second) &&
                      prev->second.pgoff + (start - prev->second.start) == pgoff;
    const bool right = next != segs_.end() && next->second.start == end &&
                       compatible(next->second) && next->second.pgoff == pgoff + (end - start);
    if (!left && !right) return false;
    // vma_expand grows prev (if it merges) or next: vma_prepare takes it out of the tree,
    // vma_complete puts it back with the new range; with both, next is removed as well.
    const auto keep = left ? prev : next;
    Segment& k = keep->second;
    const std::uint32_t first = static_cast<std::uint32_t>(plan.ops.size());
    TreeOp rm;
    rm.kind = TreeOp::Remove;
    rm.vma = k.vma;
    plan.ops.push_back(rm);
    const std::uint64_t newStart = left ? k.start : start;
    const std::uint64_t newEnd = right ? next->second.end : end;
    const std::uint64_t newPgoff = left ? k.pgoff : pgoff;
    insertOp(plan, k.vma, newPgoff, newEnd - newStart);
    const bool anon = k.accounted || (left && right && next->second.accounted);
    if (left && right) {
        // __remove_shared_vm_struct in vma_complete; under split-locks the v2 patch has it
        // lock the removed VMA's own tree.
        if (batch.splitTwoHolds) {
            pushHold(plan, Hold::Expand, file, first, true, anon);
        }
        const std::uint32_t second = static_cast<std::uint32_t>(plan.ops.size());
        TreeOp gone;
        gone.kind = TreeOp::Remove;
        gone.release = true;
        gone.vma = next->second.vma;
        plan.ops.push_back(gone);
        if (batch.splitTwoHolds) {
            pushHold(plan, Hold::Unlink, file, second);
        } else {
            pushHold(plan, Hold::Expand, file, first, true, anon);
        }
    } else {
        pushHold(plan, Hold::Expand, file, first, true, anon);
    }
    Segment grown = k;
    grown.start = newStart;
    grown.end = newEnd;
    grown.pgoff = newPgoff;
    if (left && right) segs_.erase(next);
    if (left) {
        keep->second = grown;  // its start, the key, is unchanged
    } else {
        segs_.erase(keep);  // next grows down: a new key
        segs_.emplace(newStart, grown);
    }
    return true;
}

void AddressSpace::protect(std::uint64_t start, std::uint64_t end, std::uint8_t prot,
                           const BatchRule& batch, Plan& plan) {
    // mprotect_fixup: nothing happens to a VMA that already has the protection; otherwise it
    // is split at the range ends (new piece below at the start, above at the end).
    for (auto it = firstEndingAfter(start); it != segs_.end() && it->second.start < end; ++it) {
        const Segment& s = it->second;
        if (s.prot == prot) continue;
        if (s.start < start) {
            it = split(it, start, true, batch, plan);  // the upper part is the one inside
        }
        if (it->second.end > end) split(it, end, false, batch, plan);
        it->second.prot = prot;
        // mprotect_fixup: making a private mapping writable charges it (VM_ACCOUNT); dropping
        // the write bit keeps the charge.
        if (prot & kProtWrite) it->second.accounted = true;
    }
}

void AddressSpace::planMmap(std::int32_t file, std::uint64_t startPage, std::uint64_t pages,
                            std::uint64_t pgoff, std::uint8_t prot, bool anon,
                            const BatchRule& batch, Plan& plan) {
    unmap(startPage, startPage + pages, batch, plan);  // MAP_FIXED replaces what is there
    if (!anon) map(file, startPage, startPage + pages, pgoff, prot, batch, plan);
}

void AddressSpace::planMunmap(std::uint64_t startPage, std::uint64_t pages, const BatchRule& batch,
                              Plan& plan) {
    unmap(startPage, startPage + pages, batch, plan);
}

void AddressSpace::planMprotect(std::uint64_t startPage, std::uint64_t pages, std::uint8_t prot,
                                Plan& plan, const BatchRule& batch) {
    protect(startPage, startPage + pages, prot, batch, plan);
}

void AddressSpace::planExitMmap(const BatchRule& batch, Plan& plan) {
    // free_pgtables over the whole old image, in address order.
    std::vector<Segment> gone = segments();
    segs_.clear();
    unlinkBatched(gone, batch, plan);
}

void AddressSpace::planSteps(const Recipe& recipe, const BatchRule& batch, Plan& plan,
                             const std::vector<std::uint8_t>* lineSteps) {
    for (std::size_t k = 0; k < recipe.steps.size(); ++k) {
        const RecipeStep& st = recipe.steps[k];
        if (lineSteps && k < lineSteps->size() && (*lineSteps)[k])
            plan.actions.push_back({Action::Lines, static_cast<std::uint32_t>(k), 0});
        const std::uint64_t start = (st.file >= 0 ? regionBase(st.file) : 0) + st.at;
        const std::int32_t file = st.file >= 0 && st.file < static_cast<int>(fileIds_.size())
                                      ? fileIds_[static_cast<std::size_t>(st.file)]
                                      : st.file;
        switch (st.op) {
            case StepOp::Work:
                // Back-to-back work is one stretch of unlocked time: one event, not several.
                if (!plan.actions.empty() && plan.actions.back().kind == Action::Work) {
                    plan.actions.back().weight += st.weight;
                } else {
                    plan.actions.push_back(
                        {Action::Work, static_cast<std::uint32_t>(k), st.weight});
                }
                break;
            case StepOp::ExitMmap:
                planExitMmap(batch, plan);
                break;
            case StepOp::Mmap:
                planMmap(file, start, st.pages, st.pgoff, st.prot, st.anon, batch, plan);
                break;
            case StepOp::Munmap:
                planMunmap(start, st.pages, batch, plan);
                break;
            case StepOp::Mprotect:
                planMprotect(start, st.pages, st.prot, plan, batch);
                break;
        }
    }
}

}  // namespace immap::sim
