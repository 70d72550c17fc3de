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

void AddressSpace::split(std::size_t i, std::uint64_t at, bool newBelow, const BatchRule& batch,
                         Plan& plan) {
    Segment& seg = segs_[i];
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
    segs_[i] = lower;
    segs_.insert(segs_.begin() + static_cast<std::ptrdiff_t>(i) + 1, upper);
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
    for (std::size_t i = 0; i < segs_.size(); ++i) {
        if (segs_[i].start < start && segs_[i].end > start) {
            split(i, start, true, batch, plan);
            break;
        }
    }
    for (std::size_t i = 0; i < segs_.size(); ++i) {
        if (segs_[i].start < end && segs_[i].end > end) {
            split(i, end, false, batch, plan);
            break;
        }
    }
    std::vector<Segment> gone;
    auto keep = segs_.begin();
    for (auto it = segs_.begin(); it != segs_.end(); ++it) {
        if (it->start >= start && it->end <= end) {
            gone.push_back(*it);
        } else {
            *keep++ = *it;
        }
    }
    segs_.erase(keep, segs_.end());
    unlinkBatched(gone, batch, plan);
}

void AddressSpace::map(std::int32_t file, std::uint64_t start, std::uint64_t end,
                       std::uint64_t pgoff, std::uint8_t prot, const BatchRule& batch, Plan& plan) {
    if (mergeNew(file, start, end, pgoff, prot, batch, plan)) return;
    SimVma* vma = allocate(file);
    const std::uint32_t first = static_cast<std::uint32_t>(plan.ops.size());
    insertOp(plan, vma, pgoff, end - start);
    pushHold(plan, Hold::Map, file, first);
    Segment seg{start, end, file, pgoff, prot, (prot & kProtWrite) != 0, vma};
    auto at = std::lower_bound(segs_.begin(), segs_.end(), start,
                               [](const Segment& s, std::uint64_t v) { return s.start < v; });
    segs_.insert(at, seg);
}

bool AddressSpace::mergeNew(std::int32_t file, std::uint64_t start, std::uint64_t end,
                            std::uint64_t pgoff, std::uint8_t prot, const BatchRule& batch,
                            Plan& plan) {
    // can_vma_merge_after/before (mm/vma.c): the same file, the same vm_flags (here the
    // protection and VM_ACCOUNT, which a private writable mapping gets in __mmap_region),
    // adjacent addresses and contiguous file offsets. The new mapping has no anon_vma, and a
    // copy's VMAs were never inherited by fork, so is_mergeable_anon_vma always agrees.
    const bool accounted = (prot & kProtWrite) != 0;
    auto at = std::lower_bound(segs_.begin(), segs_.end(), start,
                               [](const Segment& s, std::uint64_t v) { return s.start < v; });
    const std::size_t nextIdx = static_cast<std::size_t>(at - segs_.begin());
    auto compatible = [&](const Segment& s) {
        return s.file == file && s.prot == prot && s.accounted == accounted;
    };
    const bool left = nextIdx > 0 && segs_[nextIdx - 1].end == start &&
                      compatible(segs_[nextIdx - 1]) &&
                      segs_[nextIdx - 1].pgoff + (start - segs_[nextIdx - 1].start) == pgoff;
    const bool right = nextIdx < segs_.size() && segs_[nextIdx].start == end &&
                       compatible(segs_[nextIdx]) && segs_[nextIdx].pgoff == pgoff + (end - start);
    if (!left && !right) return false;
    // vma_expand grows prev (if it merges) or next: vma_prepare takes it out of the tree,
    // vma_complete puts it back with the new range; with both, next is removed as well.
    const std::size_t keep = left ? nextIdx - 1 : nextIdx;
    Segment& k = segs_[keep];
    const std::uint32_t first = static_cast<std::uint32_t>(plan.ops.size());
    TreeOp rm;
    rm.kind = TreeOp::Remove;
    rm.vma = k.vma;
    plan.ops.push_back(rm);
    const std::uint64_t newStart = left ? k.start : start;
    const std::uint64_t newEnd = right ? segs_[nextIdx].end : end;
    const std::uint64_t newPgoff = left ? k.pgoff : pgoff;
    insertOp(plan, k.vma, newPgoff, newEnd - newStart);
    const bool anon = k.accounted || (left && right && segs_[nextIdx].accounted);
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
        gone.vma = segs_[nextIdx].vma;
        plan.ops.push_back(gone);
        if (batch.splitTwoHolds) {
            pushHold(plan, Hold::Unlink, file, second);
        } else {
            pushHold(plan, Hold::Expand, file, first, true, anon);
        }
    } else {
        pushHold(plan, Hold::Expand, file, first, true, anon);
    }
    k.start = newStart;
    k.end = newEnd;
    k.pgoff = newPgoff;
    if (left && right) segs_.erase(segs_.begin() + static_cast<std::ptrdiff_t>(nextIdx));
    return true;
}

void AddressSpace::protect(std::uint64_t start, std::uint64_t end, std::uint8_t prot,
                           const BatchRule& batch, Plan& plan) {
    // mprotect_fixup: nothing happens to a VMA that already has the protection; otherwise it
    // is split at the range ends (new piece below at the start, above at the end).
    for (std::size_t i = 0; i < segs_.size(); ++i) {
        Segment& s = segs_[i];
        if (s.end <= start || s.start >= end || s.prot == prot) continue;
        if (s.start < start) {
            split(i, start, true, batch, plan);
            continue;  // segs_[i + 1] is the part inside; the loop reaches it next
        }
        if (s.end > end) split(i, end, false, batch, plan);
        segs_[i].prot = prot;
        // mprotect_fixup: making a private mapping writable charges it (VM_ACCOUNT); dropping
        // the write bit keeps the charge.
        if (prot & kProtWrite) segs_[i].accounted = true;
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
    std::vector<Segment> gone;
    gone.swap(segs_);
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
