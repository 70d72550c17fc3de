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
        {"unlocked_ns_per_exec", "ns", &CostParams::unlockedNsPerExec, 888'000, 0, 1e10, 850'000,
         950'000,
         "Work per exec outside any i_mmap lock and outside the shared lines the model prices "
         "(user space, page faults, the rest of execve), spread over the recipe's work steps "
         "by their weights.",
         "1 copy of execl-loop ran 1,104 execs/s on the capture host (samples/traces/README.md): "
         "906 µs per exec. At 1 copy on that host (samples/topologies/host-2cpu.xml, other "
         "parameters at their defaults) the model prices 6.3 µs of locked i_mmap work and 12.2 "
         "µs on the shared lines besides i_mmap per exec (immap simulate --topology "
         "xml:samples/topologies/host-2cpu.xml --duration-ms 3000 --param "
         "unlocked_ns_per_exec=890000 gives 908.3 µs per exec); 906 - 18.3 = 888 µs, which "
         "gives 1,103 execs/s (906.3 µs)."},
        {"mem_local_ns", "ns", &CostParams::memLocalNs, 50, 0, 1e6, 40, 60,
         "Touching a tree node (or a lock's cache line) homed on the CPU's own NUMA node: one "
         "cache-line transfer within a socket.",
         "Core-to-core CAS round trips of 44-51 ns on four Xeons, 59.8 ns local HITM on a Xeon "
         "8360Y (docs/kernel.md 5.1)."},
        {"mem_per_distance_ns", "ns per SLIT unit", &CostParams::memPerDistanceNs, 6.4, 0, 1e5, 5.3,
         7.8,
         "Added to a touch per SLIT distance unit above 10 between the CPU's node and the "
         "line's home node.",
         "Cross-socket transfers of 108-136 ns on 2-socket Xeons (SLIT 21): (120 - 50) / 11 = "
         "6.4; the same slope gives 190 ns at SLIT 32, against 197 ns measured across EPYC "
         "7R13 sockets (docs/kernel.md 5.1, 5.2)."},
        {"cache_hit_ns", "ns", &CostParams::cacheHitNs, 5, 0, 1e6, 3, 5.5,
         "Reading a tree node whose line this CPU still holds in its current version (nobody "
         "wrote it since this CPU last touched it) but not in its L1 (cache_l1_hit_ns): an L2 "
         "hit, with the compare and branch an update does per node.",
         "An L2 hit is 12-16 cycles (Intel's and AMD's optimization manuals: 14-16 on Golden "
         "Cove and later, 14 on Zen 4), 4-5.3 ns at 3 GHz. The all-in time per node read of "
         "warm remove-and-reinsert on trees of 1,024 and 4,096 nodes (tests/bench/"
         "touch_cost_bench, a mix of L1 and L2 hits) was 3.0-5.5 ns on the 2-CPU VMs here "
         "(docs/measurements.md)."},
        {"cache_l1_hit_ns", "ns", &CostParams::cacheL1HitNs, 1.5, 0, 1e6, 0.8, 2,
         "Reading a tree node whose line is still in this CPU's L1 data cache (l1_lines, "
         "l1_ways: a path re-read within one update, or the same descent one hold later).",
         "An L1 load-to-use latency of 4-5 cycles (Intel's and AMD's optimization manuals: 5 "
         "on Golden Cove and later, 4 on Zen 4), 1.1-1.7 ns at 3-3.5 GHz; plausible range "
         "1-2 ns with the per-node compare and branch."},
        {"l1_lines", "lines", &CostParams::l1Lines, 512, 1, 1e6, 512, 768,
         "Lines a CPU's L1 data cache keeps: a tree line is an L1 hit while fewer than l1_ways "
         "distinct lines of its set (tree lines, or the unlocked work's) were touched since its "
         "last touch (a set-associative LRU cache).",
         "32 KiB (Zen 2-5) to 48 KiB (Intel Ice Lake and later) of 64-byte lines: 512-768; hwloc "
         "gives a host's own (L1Cache cache_size)."},
        {"l1_ways", "lines per set", &CostParams::l1Ways, 8, 1, 255, 8, 12,
         "The L1 data cache's associativity: l1_lines / l1_ways sets, each an LRU list of this "
         "many lines.",
         "8-way on Zen 2-5 and Skylake (32 KiB), 12-way on Ice Lake and later (48 KiB): AMD's "
         "and Intel's optimization manuals; lscpu -C or hwloc's L1Cache cache_associativity "
         "gives a host's own."},
        {"work_lines_per_us", "lines per µs", &CostParams::workLinesPerUs, 10, 0, 1e4, 1, 100,
         "Cache lines the unlocked work between holds touches per µs of it (page faults "
         "zeroing and filling pages, the loader's relocations): each streams through the "
         "CPU's L1, so after enough work a tree node's line is an L2 hit, not an L1 hit.",
         "perf stat -e page-faults -r 50 /bin/true on this host: 50 page faults per exec of a "
         "small dynamic binary; at about 64 lines (one 4 KiB page) each, over the 300 µs one "
         "exec takes here (docs/measurements.md), about 10 lines per µs. A lower bound: the "
         "kernel's own structures and the user's code are not counted. Range 1-100."},
        {"write_fraction", "x a touch", &CostParams::writeFraction, 0.5, 0, 1, 0.3, 1,
         "A rebalancing write (link, colour, subtree_last) to a node line this CPU holds but "
         "others may too costs this fraction of a transfer from the line's last writer; a "
         "write to a line held alone is free, one not held is a full transfer.",
         "The update has just read the line, so a write is an ownership upgrade (invalidating "
         "other sharers, no data moved), about half a transfer (inference)."},
        {"tree_op_ns", "ns", &CostParams::treeOpNs, 5, 0, 1e6, 0, 20,
         "Fixed cost of one tree insert or remove beyond its node reads: __vma_link_file's "
         "and __remove_shared_vm_struct's call and flag checks (mm/vma.c).",
         "A call and a few tests on x86, where flush_dcache_mmap_lock is a no-op and "
         "i_mmap_writable is touched only for shared writable mappings (inference). "
         "tests/bench/touch_cost_bench finds no fixed part beyond the per-node cost on "
         "this host (its fitted intercept is at or below 0)."},
        {"lock_atomic_ns", "ns", &CostParams::lockAtomicNs, 10, 1, 1e6, 6, 25,
         "One atomic on a lock word already in the CPU's cache (down_write's cmpxchg, "
         "up_write's add; an arriving optimistic spinner's failed cmpxchg and osq->tail xchg "
         "are two). A word last touched elsewhere also pays the transfer.",
         "A locked read-modify-write on a cached line is about 20-25 cycles (inference)."},
        {"split_store_ns", "ns", &CostParams::splitStoreNs, 200, 0, 1e6, 100, 400,
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
        {"anon_vma_lock_ns", "ns", &CostParams::anonVmaLockNs, 120, 0, 1e6, 60, 240,
         "Added to a split (or merge) hold whose VMA has an anon_vma (the written RELRO "
         "segment): vma_prepare's anon_vma_lock_write, the anon_vma interval tree's pre- and "
         "post-update of the VMA's chain entries, and the unlock in vma_complete (mm/vma.c).",
         "Estimate from cache misses, not measured: the anon_vma was made by this process's own "
         "write fault, so its rwsem is uncontended and cached: 2 x lock_atomic_ns (10) for "
         "down_write and up_write; removing and re-inserting the one anon_vma_chain in a tree of "
         "one or two nodes touches about 2 lines not in cache: 2 x mem_local_ns (50). 20 + 100 "
         "= 120 ns (inference)."},
        {"wakeup_ns", "ns", &CostParams::wakeupNs, 3'000, 0, 1e9, 1'500, 10'000,
         "A sleeping waiter (a reader: walkers, and sharded modifiers on the top-level lock) "
         "runs this long after it is granted the lock, holding it meanwhile. Spinning writers "
         "pay nothing.",
         "A cross-CPU wake-up is an IPI plus a context switch, a few microseconds (inference, "
         "not measured in the notes)."},
        {"handoff_timeout_ns", "ns", &CostParams::handoffTimeoutNs, 4'000'000, 1e5, 1e9, 4'000'000,
         10'000'000,
         "How long the first sleeper on a lock's wait list waits before a release hands the "
         "lock to it (the HANDOFF bit) instead of to an optimistically spinning writer, which "
         "takes a freed lock first until then.",
         "RWSEM_WAIT_TIMEOUT in kernel/locking/rwsem.c: DIV_ROUND_UP(HZ, 250) jiffies, 4 ms at "
         "HZ=250 (1 jiffy) or HZ=1000 (4 jiffies); 10 ms at HZ=100. A waiter's timeout is set "
         "as it joins the wait list (rwsem_down_write_slowpath, rwsem_down_read_slowpath) and "
         "checked by rwsem_try_write_lock (writers) and rwsem_mark_wake (readers)."},
        {"sched_slice_ns", "ns", &CostParams::schedSliceNs, 2'800'000, 1e3, 1e9, 2'800'000,
         3'000'000,
         "A scheduler slice. A copy spinning for a lock keeps its CPU (its spin runs with "
         "preemption off); once another copy's unlocked work waits for that CPU, the spinner "
         "stops at the end of its current slice, counted in whole slices from when it began "
         "spinning (need_resched from the tick), and sleeps on the lock's wait list.",
         "EEVDF's base slice, kernel/sched/fair.c (linux-source-6.12, 6.12.118): "
         "normalized_sysctl_sched_base_slice = 0.70 ms (0.75 ms when EEVDF came, in 6.6), "
         "scaled by get_update_sysctl_factor(), 1 + ilog2(min(online CPUs, 8)) under the "
         "default SCHED_TUNABLESCALING_LOG: x4 from 8 CPUs on, 2.8 ms. RUN_TO_PARITY lets the "
         "running task finish its slice before a woken one preempts it."},
        {"walker_vma_ns", "ns", &CostParams::walkerVmaNs, 250, 0, 1e9, 150, 500,
         "Work per VMA a whole-file walker finds (rmap_one: the page-table walk to the PTE).",
         "Four or five dependent loads of page-table levels at mem_local_ns each (inference)."},
        {"walker_pages", "pages", &CostParams::walkerPages, 1, 1, 1e9, 1, 1,
         "Pages each whole-file walk covers: 1 for an rmap walk of a small folio, the file's "
         "size for truncate.",
         "rmap_walk_file of one folio (docs/kernel.md 2.4)."},
        {"walker_trylock", "fraction", &CostParams::walkerTrylock, 0.9, 0, 1, 0.69, 0.92,
         "Share of whole-file walkers that only try the lock: reclaim's folio_referenced walks "
         "(rwc.try_lock) give up at once when any lock they need is write-held or has sleepers "
         "(down_read_trylock), and the folio is kept as if referenced. The rest wait for the "
         "lock: try_to_unmap before an eviction, migration, truncate.",
         "mm/rmap.c (linux-source-6.12): folio_referenced sets try_lock, rmap_walk_file returns "
         "with rwc->contended when i_mmap_trylock_read fails. Measured on this host under "
         "memory pressure (scripts/walkers/measure-walkers.sh, docs/walkers.md), three runs: "
         "28.5, 27.7 and 14.9 libc walks/s from LRU scanning against at most 12.9, 2.4 and "
         "1.25 libc evictions/s, each at most one waiting walk: 0.69, 0.92, 0.92 try only "
         "(median 0.92)."},
        {"pcpu_lock_lines", "lines", &CostParams::pcpuLockLines, 10, 0, 100, 6, 30,
         "Cache lines one per-CPU-allocator section pulls while it holds the global pcpu_lock: "
         "the lock word, pcpu_alloc_mutex's (allocations), the chunk's header, alloc_map and "
         "bound_map words, block metadata, the slot lists pcpu_chunk_relocate moves the chunk "
         "between, pcpu_nr_empty_pop_pages. An exec runs four sections on these global lines, "
         "one after another: mm_init's two allocations and __mmdrop's two frees of the old mm. "
         "A section whose lines another CPU touched last pays one transfer per line.",
         "Counted in linux-source-6.12: kernel/fork.c mm_init (mm_alloc_cid, "
         "percpu_counter_init_many for rss_stat) and __mmdrop (mm_destroy_cid, "
         "percpu_counter_destroy_many); mm/percpu.c pcpu_alloc_noprof (mutex, then pcpu_lock, "
         "pcpu_alloc_area, relocate) and free_percpu (pcpu_lock, pcpu_free_area, relocate). "
         "Range 6-30: fewer when the metadata shares lines, more when a relocation crosses "
         "several slots. Guzik's commit 14ef95be6f55 (6.6) cut these sections from ten per exec "
         "to four and names them the bottleneck of a static exec benchmark on 26 cores "
         "(docs/kernel.md 10); its gain was not used to set the value."},
        {"percpu_counters_lock_lines", "lines", &CostParams::percpuCountersLockLines, 3, 0, 100, 2,
         4,
         "Lines one section under the global percpu_counters_lock pulls: "
         "percpu_counter_init_many links the new mm's rss_stat counters onto the global "
         "percpu_counters list, percpu_counter_destroy_many unlinks the old mm's: two sections "
         "per exec.",
         "lib/percpu_counter.c (linux-source-6.12, CONFIG_HOTPLUG_CPU, on in distribution "
         "kernels): the lock word, the list head or previous entry, the next entry; range 2-4."},
        {"pgd_lock_lines", "lines", &CostParams::pgdLockLines, 3, 0, 100, 2, 4,
         "Lines one section under x86-64's global pgd_lock pulls: pgd_alloc links the new mm's "
         "page-global directory onto pgd_list (pgd_ctor), pgd_free unlinks the old one "
         "(pgd_dtor): two sections per exec.",
         "arch/x86/mm/pgtable.c (linux-source-6.12); SHARED_KERNEL_PMD is 0 on x86-64, so "
         "every pgd is listed. The lock word and the two list neighbours: 3; range 2-4."},
        {"binfmt_lock_touches", "touches per exec", &CostParams::binfmtLockTouches, 4, 0, 100, 4, 8,
         "Atomics per exec on the global binfmt_lock (a read-write spinlock, read-locked): "
         "search_binary_handler read-locks it, unlocks it around each handler it tries, "
         "re-locks it after, and unlocks it on success. Each touch pulls its one line.",
         "fs/exec.c search_binary_handler (linux-source-6.12): lock, unlock, lock, unlock for "
         "the first handler that accepts: 4; 2 more per handler tried before ELF (binfmt_misc, "
         "binfmt_script when registered first): range 4-8."},
        {"i_writecount_lines", "lines", &CostParams::iWritecountLines, 1, 0, 2, 1, 2,
         "Lines one touch of an inode's i_writecount pulls. execve denies writes to the binary "
         "and to the interpreter while it loads them and keeps the binary denied while it runs: "
         "the executable's is touched 4 times per exec (open_exec, set_mm_exe_file for the new "
         "mm, the old mm's release, the bprm's close), ld.so's twice (open_exec, allow after "
         "load_elf_interp). Shared by every copy of the same binary.",
         "fs/exec.c do_open_execat and do_close_execat, kernel/fork.c set_mm_exe_file, "
         "fs/binfmt_elf.c load_elf_binary (exe_file_deny_write_access, "
         "exe_file_allow_write_access; linux-source-6.12). One line; 2 when the line is also "
         "written for another field (range 0-2; 0 turns it off)."},
        {"dentry_lockref_lines", "lines", &CostParams::dentryLockrefLines, 1, 0, 2, 1, 2,
         "Lines one touch of a dentry's d_lockref pulls. Opening each recipe file (execve's "
         "open_exec of the binary and the interpreter, ld.so's openat of ld.so.cache and "
         "libc.so.6) takes a reference at the end of the RCU path walk and the close drops it: "
         "two cmpxchgs per file per exec on a line every copy shares.",
         "fs/namei.c complete_walk / legitimize_path (lockref_get_not_dead), fs/dcache.c "
         "dput / fast_dput (lockref_put_return), lib/lockref.c (linux-source-6.12). One line "
         "(range 0-2; 0 turns it off)."},
        {"vma_count_lines", "lines", &CostParams::vmaCountLines, 1, 0, 2, 1, 2,
         "split-locks only: lines v2's atomic_t vma_count in the file's address_space pulls; "
         "every link and unlink of a VMA in any of the file's trees bumps it, inside the hold. "
         "One line for the whole file, whichever node's tree changes.",
         "The v2 patch (docs/kernel.md 6, the proposal's second version): an atomic_inc in the "
         "link and an atomic_dec in the unlink. One line (range 0-2; 0 turns it off)."},
        {"folio_pages", "pages", &CostParams::folioPages, 1, 1, 512, 1, 1,
         "Pages per page-cache folio of the mapped files (the recipe's mapped_pages). 1: small "
         "folios, each page its own struct page line for refcount and mapcount. Larger: a "
         "folio's pages share its head lines (refcount, large mapcount), touched once per "
         "fault-around batch on map and once each on unmap and put, while every page still "
         "bumps its own _mapcount on map and unmap (6.12 keeps per-page mapcounts).",
         "Depends on the filesystem: XFS has large page-cache folios since 5.18, ext4 only "
         "since 6.16, so a Debian 12 host on ext4 has small ones; range 1-512 (a 2 MiB folio: "
         "libc's text as one large folio)."},
        {"fault_around_pages", "pages", &CostParams::faultAroundPages, 16, 1, 512, 16, 16,
         "Pages a read fault on a file page in the page cache maps at once (do_fault_around, "
         "filemap_map_pages): one batch, one touch of a large folio's head lines.",
         "mm/memory.c (linux-source-6.12): fault_around_pages = 65536 >> PAGE_SHIFT, 16 with "
         "4 KiB pages; tunable in debugfs (fault_around_bytes); range 1-512."},
        {"folio_touches_per_page", "touches", &CostParams::folioTouchesPerPage, 3, 0, 6, 2, 4,
         "Transfers of a small folio's struct page line per exec that maps it: at map "
         "(folio_add_file_rmap_ptes and the reference filemap_map_pages takes, one line), at "
         "unmap in exit_mmap (folio_remove_rmap_ptes), and the TLB batch's deferred folio_put.",
         "mm/filemap.c filemap_map_pages, mm/rmap.c, mm/memory.c zap_present_ptes and "
         "tlb_flush_mmu (linux-source-6.12): 3; range 2-4."},
        {"percpu_loop_lines_per_cpu", "lines per CPU", &CostParams::percpuLoopLinesPerCpu, 4, 0, 64,
         2, 6,
         "Lines an exec touches per possible CPU in loops over all CPUs: pcpu_alloc_noprof's "
         "memset of every CPU's unit (two allocations), mm_init_cid's per-CPU initialisation, "
         "check_mm's percpu_counter_sum of rss_stat at __mmdrop. Each is in that CPU's unit, "
         "homed on its node: the exec's time grows with the machine.",
         "mm/percpu.c (for_each_possible_cpu memset), include/linux/mm.h mm_init_cid, "
         "kernel/fork.c check_mm, lib/percpu_counter.c __percpu_counter_sum "
         "(linux-source-6.12): 2 + 1 + 1 = 4; range 2-6."},
        {"percpu_loop_mlp", "misses", &CostParams::percpuLoopMlp, 8, 1, 64, 2, 16,
         "Misses of those loops in flight at once (memory-level parallelism): the addresses "
         "are independent, so a core overlaps them.",
         "10-12 line fill buffers on Skylake, 16 on Golden Cove, 22-24 outstanding L1 misses on "
         "Zen 2-4 (the vendors' optimization manuals); a loop with work per iteration reaches "
         "about half: 8 (inference); range 2-16."},
        {"smt_thread_share", "x alone", &CostParams::smtThreadShare, 0.6, 0.3, 1, 0.5, 0.75,
         "Speed of a copy's unlocked work while the other hardware thread of its core is busy "
         "(SMT), as a fraction of its speed alone. Copies fill first threads of every core "
         "before second threads, as the scheduler does; 1 turns it off.",
         "SMT gives a core 1.1-1.3x the throughput of one thread on server and kernel-heavy "
         "work (Intel's \"up to 30%\"; AMD's figures for Zen are similar): 0.55-0.65 per "
         "thread; range 0.5-1 (inference from the vendors' figures, not measured here: this "
         "host has no SMT)."},
        {"background_processes", "processes", &CostParams::backgroundProcesses, 250, 0, 1e6, 100,
         1'200,
         "Other processes on the host mapping the recipe's background files (libc, ld.so) with "
         "their final layouts, homed round-robin over the nodes; they make the trees deep.",
         "The captured host's snapshot maps libc.so.6 from 250 processes (samples/"
         "snapshots/host250). The proposal's 6,000+ libc VMAs at 384 copies would be about "
         "816 besides the copies."},
        {"warmup_ms", "ms", &CostParams::warmupMs, 5, 0, 1e6, 5, 5,
         "Least simulated time run before measuring, so that copies started together have "
         "spread out and the queues have formed (warmup_execs asks the same per copy).",
         "About 5 execs of one uncontended copy. Sets the cost of a run, not a prediction: "
         "against 20 ms, the 3-seed sample sweep (immap sweep --topology xml:samples/"
         "topologies/numa12-384cpu.xml) moved by at most 1.1% (single at 32 copies, inside "
         "the seeds' range), and by 0.4% or less at 26 of its 30 points."},
        {"warmup_execs", "execs per copy", &CostParams::warmupExecs, 3, 0, 1e6, 3, 3,
         "Measuring starts only once every copy has completed this many execs (and warmup_ms "
         "has passed): a saturated lock makes each exec slow, and the start-up convoys take "
         "a few execs to dissolve.",
         "At 384 copies on one lock, Little's law on every lock holds within 2% from about 2 "
         "execs per copy on (measured with this simulator; tests/core/sim)."},
        {"warmup_max_ms", "ms", &CostParams::warmupMaxMs, 5'000, 0, 1e7, 5'000, 5'000,
         "The longest the warm-up may last waiting for warmup_execs. A run that reaches it has "
         "no steady state (a copy cannot finish its execs: whole-file walkers arriving faster "
         "than their lock serves them, say); it then measures duration_ms of that state and "
         "says so in its result (overload). With window_max_ms it bounds every run's simulated "
         "time: at most warmup_max_ms + window_max_ms (or duration_ms when longer).",
         "Simulated time, a bound on the run's cost like window_max_ms: at the defaults the "
         "warm-up takes 5-70 ms (3 execs of a copy, 64 ms for single at 384 copies on the "
         "12-node sample); a configuration whose copies cannot do warmup_execs execs in it even "
         "alone is refused before it runs (inference)."},
        {"window_execs", "execs per copy", &CostParams::windowExecs, 20, 0, 1e6, 20, 20,
         "The measured window lasts at least duration_ms and then until every copy has completed "
         "this many execs in it (up to window_max_ms). UnixBench's score is the copies' "
         "iteration counts over a fixed time (Run's runOnePass, COUNT0 / TIME); a count is exact "
         "to one exec per copy, so a copy needs many execs in the window.",
         "With 20 execs per copy, a copy's count is within 5% of its rate times the window "
         "(one exec in 20), and the sum over copies far closer (their phases are independent). "
         "A 100 ms window held 1.7 execs per copy of single at 384 copies on the 12-node sample, "
         "under-reporting it by about 15% (model review, December 2026)."},
        {"window_total_execs", "execs", &CostParams::windowTotalExecs, 400, 0, 1e9, 400, 400,
         "The measured window also lasts until the copies together have completed this many "
         "execs in it (up to window_max_ms): it sets the count's precision when few copies run.",
         "A window that closes at the exec completing its counts is short by part of an exec of "
         "the copy closing it: with N copies of equal rate and random phase, every copy counts "
         "its minimum and the window lasts (count - 1 + N/(N+1)) periods, so execs/s reads "
         "high by about 1/(2 x count) at 1 copy and 1/((N+1) x count) at N. 400 in all keeps "
         "that within 0.13% at 1 copy and 0.25% at 8; from 20 copies on window_execs asks for "
         "more anyway. Sets the cost of a run, not a prediction: with duration_ms at 20 ms and "
         "100 execs in all, the 3-seed sample sweep read single at 4-16 copies 1.4-1.8% above a "
         "fixed 100 ms floor; with 400, at most 0.9% (docs/simulator.md)."},
        {"window_max_ms", "ms", &CostParams::windowMaxMs, 5'000, 0, 1e7, 5'000, 5'000,
         "The longest the measured window may last waiting for window_execs: a copy stuck behind "
         "a saturated lock (walkers arriving faster than a lock serves them) would keep it open "
         "forever. The result reports the fewest execs a copy completed in the window.",
         "Simulated time, a bound on the run's cost: 5 s holds 20 execs of a copy doing 4 execs/s "
         "(inference; UnixBench runs each pass for 30 s)."},
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

void CostParams::clearSharedLines() {
    pcpuLockLines = 0;
    percpuCountersLockLines = 0;
    pgdLockLines = 0;
    binfmtLockTouches = 0;
    iWritecountLines = 0;
    dentryLockrefLines = 0;
    vmaCountLines = 0;
    folioTouchesPerPage = 0;
    percpuLoopLinesPerCpu = 0;
    smtThreadShare = 1;
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
