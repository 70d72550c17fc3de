#include "sim/SharedLines.h"

#include <algorithm>
#include <cmath>

namespace immap::sim {

const char* sharedLineScopeName(SharedLineKind::Scope s) {
    switch (s) {
        case SharedLineKind::Scope::Global:
            return "global";
        case SharedLineKind::Scope::Node:
            return "node";
        case SharedLineKind::Scope::File:
            return "file";
        case SharedLineKind::Scope::PerCpu:
            return "per-cpu";
    }
    return "?";
}

namespace {
unsigned count(double v) {
    return v > 0 ? static_cast<unsigned>(std::llround(v)) : 0u;
}
}  // namespace

// Where each touch happens follows the exec's order (docs/simulator.md, "The rest of exec"):
//   before the first step (execve's start): search_binary_handler's binfmt_lock, open_exec of
//     the binary and the interpreter (a dentry reference, a write denial each), the new mm's
//     mm_init (two per-CPU allocations, the rss_stat counters' list) and pgd_alloc;
//   before exit_mmap: the old image's folios unmapped (and their deferred puts);
//   after exit_mmap: __mmdrop of the old mm (two frees, the counters' list, pgd_free), its
//     exe_file released (the binary's write denial and dentry reference);
//   before a file's first mmap: its folios mapped by faults; a file ld.so opens takes and drops
//     its dentry reference; the interpreter's and the binary's write denials end after loading.
SharedLines::SharedLines(const CostParams& p, const Recipe& recipe, unsigned nodes, bool splitLocks,
                         std::vector<double> loopNs, const std::vector<ExtraSharedLine>& extra)
    : nodes_(std::max(1u, nodes)), loopNs_(std::move(loopNs)) {
    const std::size_t steps = recipe.steps.size();
    atStep_.assign(steps, {});
    stepMask_.assign(steps, 0);
    vmaCount_.assign(recipe.files.size(), -1);

    std::size_t exitStep = steps;
    std::vector<std::size_t> firstMap(recipe.files.size(), steps);
    for (std::size_t k = 0; k < steps; ++k) {
        const RecipeStep& st = recipe.steps[k];
        if (st.op == StepOp::ExitMmap && exitStep == steps) exitStep = k;
        if (st.op == StepOp::Mmap && !st.anon && st.file >= 0 &&
            firstMap[static_cast<std::size_t>(st.file)] == steps)
            firstMap[static_cast<std::size_t>(st.file)] = k;
    }
    const std::size_t afterExit = exitStep + 1 < steps ? exitStep + 1 : exitStep;

    auto global = [&](const char* name, double lines) -> int {
        if (!(lines > 0)) return -1;
        SharedLineKind k;
        k.name = name;
        k.lines = lines;
        return static_cast<int>(add(k));
    };
    auto perFile = [&](const std::string& name, std::size_t f, double lines,
                       double alike = 1) -> int {
        if (!(lines > 0) || !(alike > 0)) return -1;
        SharedLineKind k;
        k.name = name + " " + recipe.files[f].name;
        k.scope = SharedLineKind::Scope::File;
        k.file = static_cast<int>(f);
        k.lines = lines;
        k.alike = alike;
        k.privateTo = recipe.files[f].perCopy;
        return static_cast<int>(add(k));
    };
    auto at = [&](std::size_t step, int kind, unsigned touches) {
        if (kind >= 0 && touches > 0 && step < steps)
            use(step, static_cast<std::uint32_t>(kind), touches);
    };

    // Global sections, in execve's order.
    const int binfmt = global("binfmt_lock", 1);
    const int pcpu = global("pcpu_lock", p.pcpuLockLines);
    const int counters = global("percpu_counters_lock", p.percpuCountersLockLines);
    const int pgd = global("pgd_lock", p.pgdLockLines);
    at(0, binfmt, count(p.binfmtLockTouches));

    // Files execve opens itself: a dentry reference and a write denial at the start.
    std::vector<int> dentry(recipe.files.size(), -1), writecount(recipe.files.size(), -1);
    for (std::size_t f = 0; f < recipe.files.size(); ++f) {
        dentry[f] = perFile("dentry", f, p.dentryLockrefLines);
        if (recipe.files[f].execOpen != ExecOpen::None)
            writecount[f] = perFile("i_writecount", f, p.iWritecountLines);
    }
    for (std::size_t f = 0; f < recipe.files.size(); ++f) {
        const ExecOpen how = recipe.files[f].execOpen;
        if (how == ExecOpen::None) continue;
        at(0, dentry[f], 1);
        at(0, writecount[f], how == ExecOpen::Binary ? 2 : 1);  // open_exec; set_mm_exe_file
    }
    at(0, pcpu, 2);  // mm_init: mm_alloc_cid, percpu_counter_init_many
    at(0, counters, 1);
    at(0, pgd, 1);
    // Loops over every possible CPU: pcpu_alloc_noprof's memset of each unit (two allocations)
    // and mm_init_cid at the start, check_mm's counter sums at __mmdrop.
    int loops = -1;
    if (p.percpuLoopLinesPerCpu > 0 && !loopNs_.empty()) {
        SharedLineKind k;
        k.name = "per-CPU loops";
        k.scope = SharedLineKind::Scope::PerCpu;
        k.lines = p.percpuLoopLinesPerCpu / 4;
        k.privateTo = true;
        k.loop = true;
        loops = static_cast<int>(add(k));
        at(0, loops, 3);
    }

    // Page-cache folios: small ones are `mapped_pages` alike lines touched per round; a large
    // folio's head lines take a touch per fault-around batch on map, and its pages keep their
    // own _mapcount lines.
    const double folio = std::max(1.0, std::round(p.folioPages));
    for (std::size_t f = 0; f < recipe.files.size(); ++f) {
        const double pages = static_cast<double>(recipe.files[f].mappedPages);
        if (!(pages > 0) || !(p.folioTouchesPerPage > 0)) continue;
        if (folio <= 1) {
            const int k = perFile("folio", f, 1, pages);
            at(firstMap[f], k, 1);
            at(exitStep, k, count(p.folioTouchesPerPage - 1));
        } else {
            const double perFolio = std::min(folio, pages);
            const double folios = std::ceil(pages / folio);
            const int head = perFile("folio head", f, 1, folios);
            const int mapcount = perFile("page _mapcount", f, 1, pages);
            at(firstMap[f], head,
               count(std::ceil(perFolio / std::max(1.0, std::round(p.faultAroundPages)))));
            at(firstMap[f], mapcount, 1);
            at(exitStep, head, 2);  // folio_remove_rmap_ptes, the deferred folio_put
            at(exitStep, mapcount, 1);
        }
    }

    // __mmdrop of the old mm, and its exe_file let go.
    at(afterExit, pcpu, 2);  // mm_destroy_cid, percpu_counter_destroy_many
    at(afterExit, counters, 1);
    at(afterExit, pgd, 1);
    at(afterExit, loops, 1);
    for (std::size_t f = 0; f < recipe.files.size(); ++f) {
        if (recipe.files[f].execOpen != ExecOpen::Binary) continue;
        at(afterExit, writecount[f], 1);
        at(afterExit, dentry[f], 1);
    }

    // Around each file's first mapping.
    for (std::size_t f = 0; f < recipe.files.size(); ++f) {
        switch (recipe.files[f].execOpen) {
            case ExecOpen::None:  // ld.so's openat, mmap, close
                at(firstMap[f], dentry[f], 2);
                break;
            case ExecOpen::Interpreter:  // allowed again once loaded; its file is put
                at(firstMap[f], writecount[f], 1);
                at(firstMap[f], dentry[f], 1);
                break;
            case ExecOpen::Binary:  // the bprm's own denial ends (do_close_execat)
                at(firstMap[f], writecount[f], 1);
                break;
        }
    }

    // v2's vma_count: touched inside split-locks' holds (the simulator asks vmaCountKind).
    if (splitLocks)
        for (std::size_t f = 0; f < recipe.files.size(); ++f)
            vmaCount_[f] = perFile("vma_count", f, p.vmaCountLines);

    for (const ExtraSharedLine& e : extra)
        at(e.step, static_cast<int>(add(e.kind)), e.touches);
}

std::uint32_t SharedLines::add(SharedLineKind k) {
    const std::size_t instances = k.scope == SharedLineKind::Scope::Node ? nodes_ : 1;
    SharedLineResult r;
    r.name = k.name;
    r.scope = sharedLineScopeName(k.scope);
    kinds_.push_back(std::move(k));
    lines_.emplace_back(instances);
    stats_.push_back(std::move(r));
    return static_cast<std::uint32_t>(kinds_.size() - 1);
}

void SharedLines::use(std::size_t step, std::uint32_t kind, unsigned touches) {
    for (unsigned i = 0; i < touches; ++i)
        atStep_[step].push_back(kind);
    stepMask_[step] = 1;
}

Time SharedLines::touch(std::uint32_t kind, int cpu, int node, Time t,
                        const std::vector<std::vector<double>>& transferNs, double atomicNs,
                        bool counting) {
    const SharedLineKind& k = kinds_[kind];
    SharedLineResult& s = stats_[kind];
    if (k.privateTo) {  // only this copy touches it: it stays in this CPU's cache
        const double ns = k.loop ? k.lines * loopNs_[static_cast<std::size_t>(std::clamp(
                                                 node, 0, static_cast<int>(loopNs_.size()) - 1))]
                                 : k.alike * k.lines * atomicNs;
        if (counting) {
            ++s.touches;
            s.delayNs += ns;
        }
        return t + static_cast<Time>(std::llround(ns));
    }
    const std::size_t instance =
        k.scope == SharedLineKind::Scope::Node
            ? static_cast<std::size_t>(std::clamp(node, 0, static_cast<int>(nodes_) - 1))
            : 0;
    Line& l = lines_[kind][instance];
    const bool moved = l.lastCpu >= 0 && l.lastCpu != cpu;
    const double service =
        k.lines *
        (atomicNs +
         (moved ? transferNs[static_cast<std::size_t>(l.lastNode)][static_cast<std::size_t>(node)]
                : 0.0));
    const Time begin = std::max(t, l.free);
    l.free = begin + static_cast<Time>(std::llround(service));
    l.lastCpu = cpu;
    l.lastNode = node;
    const double delay = k.alike * (static_cast<double>(begin - t) + service);
    if (counting) {
        ++s.touches;
        if (moved) s.transfers += static_cast<std::uint64_t>(std::llround(k.alike * k.lines));
        s.delayNs += delay;
    }
    return t + static_cast<Time>(std::llround(delay));
}

double SharedLines::leastNsPerExec(double atomicNs) const {
    double ns = 0;
    for (const std::vector<std::uint32_t>& touches : atStep_)
        for (std::uint32_t kind : touches) {
            const SharedLineKind& k = kinds_[kind];
            const double loopNs =
                loopNs_.empty() ? 0 : *std::min_element(loopNs_.begin(), loopNs_.end());
            ns += k.loop ? k.lines * loopNs : k.alike * k.lines * atomicNs;
        }
    return ns;
}

std::vector<SharedLineResult> SharedLines::results() const {
    return stats_;
}

}  // namespace immap::sim
