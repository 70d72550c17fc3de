#include "sim/CostParams.h"

#include <charconv>
#include <cmath>
#include <limits>

#include "limits/InputLimits.h"

namespace immap::sim {

// The ranges are the model's valid inputs. lock_atomic_ns's minimum keeps time moving: every
// lock hold touches its lock word, so at 1 ns or more (the clock's resolution) no exec with a
// hold takes zero simulated time (the simulator's guard catches the rest). A write costs at
// most a whole transfer. Memory costs may be 0, to isolate the rest of the model.
const std::vector<CostParams::Info>& CostParams::table() {
    static const std::vector<Info> t = {
        {"unlocked_ns_per_exec", "ns", &CostParams::unlockedNsPerExec, 832'000, 0, 1e10,
         "Work per exec outside any i_mmap lock (user space, page faults, the rest of execve), "
         "spread over the recipe's work steps by their weights.",
         "1 copy of execl-loop ran 1,104 execs/s on the capture host (samples/traces/README.md): "
         "906 µs per exec. The model's locked i_mmap work per exec at 1 copy on that host "
         "(samples/topologies/host-2cpu.xml, other parameters at their defaults) is 74 µs "
         "(immap simulate --topology xml:samples/topologies/host-2cpu.xml --param "
         "unlocked_ns_per_exec=0 gives 13,599 execs/s); 906 - 74 = 832 µs."},
        {"mem_local_ns", "ns", &CostParams::memLocalNs, 50, 0, 1e6,
         "Touching a tree node (or a lock's cache line) homed on the CPU's own NUMA node: one "
         "cache-line transfer within a socket.",
         "Core-to-core CAS round trips of 44-51 ns on four Xeons, 59.8 ns local HITM on a Xeon "
         "8360Y (docs/kernel.md 5.1)."},
        {"mem_per_distance_ns", "ns per SLIT unit", &CostParams::memPerDistanceNs, 6.4, 0, 1e5,
         "Added to a touch per SLIT distance unit above 10 between the CPU's node and the "
         "line's home node.",
         "Cross-socket transfers of 108-136 ns on 2-socket Xeons (SLIT 21): (120 - 50) / 11 = "
         "6.4; the same slope gives 190 ns at SLIT 32, against 197 ns measured across EPYC "
         "7R13 sockets (docs/kernel.md 5.1, 5.2)."},
        {"write_fraction", "x a touch", &CostParams::writeFraction, 0.5, 0, 1,
         "A rebalancing write (link, colour, subtree_last) to a node costs this fraction of a "
         "touch at the same distance; repeated writes to one node in one update are free.",
         "The update has just read the line, so a write is an ownership upgrade (invalidating "
         "other sharers), about half a transfer (inference)."},
        {"tree_op_ns", "ns", &CostParams::treeOpNs, 40, 0, 1e6,
         "Fixed cost of one tree insert or remove beyond its node touches (calls, "
         "flush_dcache_mmap_lock, i_mmap_writable).",
         "A few dozen instructions on x86, where flush_dcache_mmap_lock is a no-op (inference)."},
        {"lock_atomic_ns", "ns", &CostParams::lockAtomicNs, 10, 1, 1e6,
         "One atomic on a lock word already in the CPU's cache (down_write's cmpxchg, "
         "up_write's add; an arriving optimistic spinner's failed cmpxchg and osq->tail xchg "
         "are two). A word last touched elsewhere also pays the transfer.",
         "A locked read-modify-write on a cached line is about 20-25 cycles (inference)."},
        {"split_store_ns", "ns", &CostParams::splitStoreNs, 200, 0, 1e6,
         "Work inside a split's (or a merge's) i_mmap write hold that is not the i_mmap tree "
         "and that no policy shrinks: vma_iter_store of the new range into the mm's maple tree "
         "and mm->map_count++ (vma_complete / commit_merge, mm/vma.c). Under split-locks it is "
         "in the second acquisition, the one on the VMA's tree.",
         "Estimate from cache misses, not measured: the store writes a freshly preallocated "
         "256-byte maple node (4 cache lines, from the slab, taken as not cached) and rewrites "
         "one slot of the parent the walk has just read; the mm line holding map_count is "
         "already owned by the mmap_lock writer. 4 local misses x mem_local_ns (50) = 200 ns; "
         "the instructions are small next to that (inference). That this work matters: moving "
         "vma_iter_store and map_count++ out from under i_mmap_lock_write gave +12% execl at "
         "160 copies (Yu Ma, 2023, docs/kernel.md); not used to set the value."},
        {"anon_vma_lock_ns", "ns", &CostParams::anonVmaLockNs, 120, 0, 1e6,
         "Added to a split (or merge) hold whose VMA has an anon_vma (the written RELRO "
         "segment): vma_prepare's anon_vma_lock_write, the anon_vma interval tree's pre- and "
         "post-update of the VMA's chain entries, and the unlock in vma_complete (mm/vma.c).",
         "Estimate from cache misses, not measured: the anon_vma was made by this process's own "
         "write fault, so its rwsem is uncontended and cached: 2 x lock_atomic_ns (10) for "
         "down_write and up_write; removing and re-inserting the one anon_vma_chain in a tree of "
         "one or two nodes touches about 2 lines not in cache: 2 x mem_local_ns (50). 20 + 100 "
         "= 120 ns (inference)."},
        {"wakeup_ns", "ns", &CostParams::wakeupNs, 3'000, 0, 1e9,
         "A sleeping waiter (a reader: walkers, and sharded modifiers on the top-level lock) "
         "runs this long after it is granted the lock, holding it meanwhile. Spinning writers "
         "pay nothing.",
         "A cross-CPU wake-up is an IPI plus a context switch, a few microseconds (inference, "
         "not measured in the notes)."},
        {"walker_vma_ns", "ns", &CostParams::walkerVmaNs, 250, 0, 1e9,
         "Work per VMA a whole-file walker finds (rmap_one: the page-table walk to the PTE).",
         "Four or five dependent loads of page-table levels at mem_local_ns each (inference)."},
        {"walker_pages", "pages", &CostParams::walkerPages, 1, 1, 1e9,
         "Pages each whole-file walk covers: 1 for an rmap walk of a small folio, the file's "
         "size for truncate.",
         "rmap_walk_file of one folio (docs/kernel.md 2.4)."},
        {"background_processes", "processes", &CostParams::backgroundProcesses, 250, 0, 1e6,
         "Other processes on the host mapping the recipe's background files (libc, ld.so) with "
         "their final layouts, homed round-robin over the nodes; they make the trees deep.",
         "The captured host's snapshot maps libc.so.6 from 250 processes (samples/"
         "snapshots/host250). The proposal's 6,000+ libc VMAs at 384 copies would be about "
         "816 besides the copies."},
        {"warmup_ms", "ms", &CostParams::warmupMs, 20, 0, 1e6,
         "Least simulated time run before measuring, so that copies started together have "
         "spread out and the queues have formed.",
         "About 20 execs of one uncontended copy (inference)."},
        {"warmup_execs", "execs per copy", &CostParams::warmupExecs, 3, 0, 1e6,
         "Measuring starts only once every copy has completed this many execs (and warmup_ms "
         "has passed): a saturated lock makes each exec slow, and the start-up convoys take "
         "a few execs to dissolve.",
         "At 384 copies on one lock, Little's law on every lock holds within 2% from about 2 "
         "execs per copy on (measured with this simulator; tests/core/sim)."},
    };
    return t;
}

bool CostParams::set(std::string_view name, double value, std::string& error) {
    for (const Info& i : table()) {
        if (name != i.name) continue;
        if (!std::isfinite(value) || value < i.min || value > i.max) {
            error = "parameter " + std::string(name) + " must be between " +
                    limits::InputLimits::number(i.min) + " and " +
                    limits::InputLimits::number(i.max) + " " + i.unit;
            return false;
        }
        // 1e-320 is in range but below the clock's resolution by 300 orders of magnitude, and
        // dividing by it overflows: a subnormal number is never what was meant.
        if (std::fpclassify(value) == FP_SUBNORMAL) {
            error = "parameter " + std::string(name) + ": " + limits::InputLimits::number(value) +
                    " is too small to be a cost (use 0, or at least 1e-300)";
            return false;
        }
        this->*(i.field) = value;
        return true;
    }
    if (name == "spin_traffic_ns") {
        // Older fits and scenarios have it: say why it is gone rather than "unknown".
        error =
            "parameter spin_traffic_ns was removed: optimistic spinners queue on their own "
            "OSQ nodes and do not slow the holder (docs/simulator.md)";
        return false;
    }
    error = "unknown parameter \"" + std::string(name) + "\" (see immap simulate --list-params)";
    return false;
}

bool CostParams::setFromText(std::string_view assignment, std::string& error) {
    const std::size_t eq = assignment.find('=');
    if (eq == std::string_view::npos || eq == 0) {
        error = "expected NAME=VALUE, got \"" + std::string(assignment) + "\"";
        return false;
    }
    const std::string_view name = assignment.substr(0, eq);
    const std::string valueText(assignment.substr(eq + 1));
    double value = 0;
    const auto [end, ec] =
        std::from_chars(valueText.data(), valueText.data() + valueText.size(), value);
    if (ec != std::errc() || end != valueText.data() + valueText.size() || valueText.empty()) {
        error = "parameter " + std::string(name) + ": \"" + valueText + "\" is not a number";
        return false;
    }
    return set(name, value, error);
}

double CostParams::get(std::string_view name) const {
    for (const Info& i : table())
        if (name == i.name) return this->*(i.field);
    return std::numeric_limits<double>::quiet_NaN();
}

}  // namespace immap::sim
