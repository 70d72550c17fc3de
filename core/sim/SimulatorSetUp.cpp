#include "sim/SimulatorImpl.h"

// Simulator's state before the run (trees, locks, background processes, the copies' first
// images) and the results read off it afterwards.

namespace immap::sim {

// One rule for the app's trees and the simulator's (mapping::TreePlacement).
int Simulator::Impl::treeFor(int file, unsigned cpu, int node) const {
    (void)file;
    return static_cast<int>(placement.treeOf(static_cast<int>(cpu), node));
}

std::vector<std::int32_t> Simulator::Impl::treesFor(unsigned cpu, int node) const {
    std::vector<std::int32_t> t(files.size());
    for (std::size_t f = 0; f < files.size(); ++f)
        t[f] = treeFor(static_cast<int>(f), cpu, node);
    return t;
}

// One tree operation, counted and reported: a removal is reported while the VMA still has the
// interval it is removed with, an insert once it has its new one.
void Simulator::Impl::applyOp(const TreeOp& op, FileState& f, FileTree& tree, AddressSpace& as,
                              Time t, std::int64_t agent) {
    if (op.kind == TreeOp::Remove) {
        emit(SimEvent::TreeRemove, t, agent, -1, op.vma);
        ++f.removes;
    } else {
        ++f.inserts;
    }
    // vm_area_alloc and the fields' initialisation (vm_area_dup, __split_vma) write a new
    // VMA on its mapping CPU before it is linked: its line is that CPU's, not memory's.
    if (op.kind == TreeOp::Insert && op.vma->line.writer < 0 && agent >= 0)
        cache->own(op.vma->line, puPos[agents[static_cast<std::size_t>(agent)].cpu]);
    applyTreeOp(op, tree, as);
    if (op.kind == TreeOp::Insert) emit(SimEvent::TreeInsert, t, agent, -1, op.vma);
}

// Applies a plan at once, untimed: the state before the measured run starts.
void Simulator::Impl::executeNow(Agent* owner, AddressSpace& as, Plan& plan) {
    pricer.enabled = false;
    pricer.setUpNode(as.home());  // B-tree nodes made now are homed where the process runs
    for (const Hold& h : plan.holds) {
        FileState& f = files[static_cast<std::size_t>(h.file)];
        for (std::uint32_t k = 0; k < h.opCount; ++k) {
            const TreeOp& op = plan.ops[h.firstOp + k];
            if (f.unlinked) {  // no-rmap: in no tree, nobody sees it
                applyTreeOp(op, *f.unlinked, as);
                continue;
            }
            FileTree& tree = *f.trees[static_cast<std::size_t>(op.vma->tree)];
            applyOp(op, f, tree, as, 0, owner ? owner - agents.data() : -1);
        }
    }
    plan.clear();
    pricer.enabled = true;
}

void Simulator::Impl::setUp() {
    const CostParams& p = cfg.params;
    for (const topology::Pu& pu : topo.pus())
        puOrder.push_back(pu.osIndex);
    if (puOrder.empty()) throw std::invalid_argument("the topology has no PUs");
    unsigned maxOs = *std::max_element(puOrder.begin(), puOrder.end());
    puPos.assign(maxOs + 1, 0);
    for (std::size_t i = 0; i < puOrder.size(); ++i)
        puPos[puOrder[i]] = static_cast<int>(i);
    cpuFree.assign(puOrder.size(), 0);
    cpuSpin.assign(puOrder.size(), CpuSpin{});

    const unsigned nodes = std::max(1u, nodeCount());
    const auto& dist = topo.distances();
    memCost.assign(nodes, std::vector<double>(nodes, p.memLocalNs));
    for (unsigned a = 0; a < nodes && a < dist.size(); ++a)
        for (unsigned b = 0; b < nodes && b < dist[a].size(); ++b)
            memCost[a][b] = p.memoryNs(dist[a][b]);
    std::vector<int> cpuNode;
    for (unsigned os : puOrder)
        cpuNode.push_back(nodeOfCpu(os));
    cache = std::make_unique<CacheModel>(std::move(cpuNode), &memCost, p.cacheHitNs,
                                         p.writeFraction, p.cacheL1HitNs, p.l1Lines, p.l1Ways);
    pricer.cache = cache.get();

    // The other hardware threads of each PU's core (SMT).
    siblings.assign(puOrder.size(), {});
    for (std::size_t i = 0; i < puOrder.size(); ++i) {
        const topology::Pu* pu = topo.puByOsIndex(puOrder[i]);
        if (!pu || pu->core < 0) continue;
        for (unsigned os : topo.cores()[static_cast<std::size_t>(pu->core)].pus)
            if (os != puOrder[i] && os < puPos.size()) siblings[i].push_back(puPos[os]);
    }
    // The lines an exec shares besides i_mmap; the per-CPU loops read one line in each possible
    // CPU's unit, homed on that CPU's node, percpu_loop_mlp misses at a time.
    std::vector<double> loopNs(nodes, 0);
    for (unsigned n = 0; n < nodes; ++n) {
        for (unsigned os : puOrder)
            loopNs[n] += memCost[n][static_cast<std::size_t>(
                std::min<int>(nodeOfCpu(os), static_cast<int>(nodes) - 1))];
        loopNs[n] /= std::max(1.0, p.percpuLoopMlp);
    }
    shared = std::make_unique<SharedLines>(p, *recipe, nodes, cfg.policy.kind == Kind::SplitLocks,
                                           std::move(loopNs), cfg.extraSharedLines);

    const auto trees = static_cast<unsigned>(placement.treeCount());
    batch.maxPerHold = cfg.unlinkBatch;
    batch.perVma = cfg.policy.kind == Kind::SplitLocks;
    batch.splitTwoHolds = cfg.policy.kind == Kind::SplitLocks;

    auto addLock = [&](int file, std::string name) {
        auto l = std::make_unique<Lock>();
        l->sem = RwSemModel(0, toTime(cfg.params.handoffTimeoutNs));
        l->file = file;
        l->name = std::move(name);
        locks.push_back(std::move(l));
        return static_cast<int>(locks.size() - 1);
    };
    // One file state (an inode): its trees and the policy's locks.
    auto addFile = [&](std::string name, std::uint64_t pages, int recipeFile) {
        const int fi = static_cast<int>(files.size());
        FileState& fs = files.emplace_back();
        fs.name = std::move(name);
        fs.recipeFile = recipeFile;
        fs.pages = pages;
        if (cfg.policy.kind == Kind::NoRmap &&
            recipe->files[static_cast<std::size_t>(recipeFile)].rmapExclude)
            fs.unlinked = std::make_unique<itree::IntervalTree>();
        for (unsigned t = 0; t < trees; ++t) {
            fs.trees.push_back(std::make_unique<FileTree>(cfg.policy.structure, &pricer));
        }
        switch (cfg.policy.kind) {
            case Kind::Single:
            case Kind::NoRmap:
            case Kind::SplitTrees:
                fs.treeLock.assign(trees, addLock(fi, fs.name));
                break;
            case Kind::SplitLocks:
                for (unsigned t = 0; t < trees; ++t)
                    fs.treeLock.push_back(addLock(fi, fs.name + "/node" + std::to_string(t)));
                break;
            case Kind::Sharded:
                fs.topLock = addLock(fi, fs.name + "/top");
                for (unsigned t = 0; t < trees; ++t)
                    fs.treeLock.push_back(addLock(fi, fs.name + "/shard" + std::to_string(t)));
                break;
        }
    };

    // File sizes, for walkers: the furthest page any mapping of the file reaches.
    std::vector<std::uint64_t> pages(recipe->files.size(), 1);
    for (const RecipeStep& s : recipe->steps)
        if (s.op == StepOp::Mmap && !s.anon)
            pages[static_cast<std::size_t>(s.file)] =
                std::max(pages[static_cast<std::size_t>(s.file)], s.pgoff + s.pages);
    files.reserve(recipe->files.size());
    for (std::size_t f = 0; f < recipe->files.size(); ++f)
        addFile(recipe->files[f].name, pages[f], static_cast<int>(f));
    // A per_copy file is a distinct inode for each copy: copy 0 maps the recipe's file state,
    // every other copy one of its own (walkers walk copy 0's).
    std::vector<std::vector<std::int32_t>> fileIds(cfg.copies);
    for (unsigned c = 0; c < cfg.copies; ++c) {
        for (std::size_t f = 0; f < recipe->files.size(); ++f) {
            std::int32_t id = static_cast<std::int32_t>(f);
            if (c > 0 && recipe->files[f].perCopy) {
                id = static_cast<std::int32_t>(files.size());
                addFile(recipe->files[f].name + "#" + std::to_string(c), pages[f],
                        static_cast<int>(f));
            }
            fileIds[c].push_back(id);
        }
    }

    // Other processes mapping the shared libraries: their final layouts, homed round robin.
    Recipe bg;
    bg.files = recipe->files;
    for (const RecipeStep& s : recipe->steps)
        if (s.file >= 0 && recipe->files[static_cast<std::size_t>(s.file)].background)
            bg.steps.push_back(s);
    const auto nBackground = static_cast<unsigned>(p.backgroundProcesses);
    if (!bg.steps.empty()) {
        for (unsigned i = 0; i < nBackground; ++i) {
            const int node = static_cast<int>(i % nodes);
            const auto& nodePus =
                topo.nodes().empty() ? puOrder : topo.nodes()[static_cast<std::size_t>(node)].pus;
            const unsigned cpu =
                nodePus.empty() ? puOrder[0] : nodePus[(i / nodes) % nodePus.size()];
            auto as = std::make_unique<AddressSpace>(-1, node);
            as->setIdSource(&nextVmaId);
            as->setTreeOfFile(treesFor(cpu, node));
            Plan plan;
            as->planSteps(bg, batch, plan);
            executeNow(nullptr, *as, plan);
            background.push_back(std::move(as));
        }
    }

    // The copies, each with the image its previous exec left, starting at spread-out times.
    copyCpu = placeCopies(topo, cfg.copies);
    agents.resize(cfg.copies);
    const double total = recipe->totalWeight();
    unlockedScale = total > 0 ? p.unlockedNsPerExec / total : 0;
    for (unsigned c = 0; c < cfg.copies; ++c) {
        Agent& a = agents[c];
        a.copy = true;
        a.active = true;
        a.cpu = copyCpu[c];
        a.node = nodeOfCpu(a.cpu);
        a.as = std::make_unique<AddressSpace>(static_cast<std::int32_t>(c), a.node);
        a.as->setIdSource(&nextVmaId);
        a.as->setTreeOfFile(treesFor(a.cpu, a.node));
        a.as->setFileIds(std::move(fileIds[c]));
        a.as->planSteps(*recipe, batch, a.plan);
        executeNow(&a, *a.as, a.plan);
    }
    for (unsigned c = 0; c < cfg.copies; ++c) {
        const Time offset = toTime(rng.uniform() * std::max(1.0, p.unlockedNsPerExec));
        queue.schedule(offset, {0, kExecStart, c, 0});
    }

    warmup = toTime(p.warmupMs * 1e6);
    window =
        MeasureWindow(cfg.durationMs, p.windowExecs, p.windowMaxMs, cfg.copies, p.windowTotalExecs);
    if (p.warmupExecs < 1)
        queue.schedule(warmup, {0, kWindowStart, 0, 0});
    else
        queue.schedule(std::max(warmup, toTime(p.warmupMaxMs * 1e6)), {0, kWarmupLimit, 0, 0});
    if (cfg.walkersPerSecond > 0) scheduleWalker(0);
}

SimResult Simulator::Impl::result(Time at) const {
    SimResult r;
    r.policy = cfg.policy.name();
    r.topology = topo.spec();
    r.recipe = recipe->name;
    r.copies = cfg.copies;
    r.seed = cfg.seed;
    r.walkersPerSecond = cfg.walkersPerSecond;
    r.params = cfg.params;
    const Time from = inWindow ? windowStart : at;
    r.durationMs = static_cast<double>(at - from) / 1e6;
    r.warmupMs = static_cast<double>(from) / 1e6;

    std::vector<CopyExecs> copies;
    for (unsigned c = 0; c < cfg.copies; ++c) {
        const Agent& a = agents[c];
        r.execs += a.execs.count;
        copies.push_back(a.execs);
    }
    r.execsPerSecond = execsPerSecond(copies, from, at);
    r.execsPerCopyMin = fewestExecs(copies);

    for (const auto& l : locks)
        r.locks.push_back({l->name, l->file, l->sem.stats(std::max(at, from)), l->windowTransfers});

    // Per CPU: the copies' phase times, the current phase closed at `at`.
    std::vector<CopyPlace> places;
    for (unsigned c = 0; c < cfg.copies; ++c)
        places.push_back({agents[c].cpu, agents[c].node, &agents[c].clock});
    r.cpus = cpuSplit(places, at, from, inWindow);

    std::size_t linkBytes = 0, linked = 0;
    for (const FileState& f : files) {
        r.files.push_back(summarizeFile(f.name, f.trees, f.inserts, f.removes));
        if (f.unlinked) r.files.back().unlinkedVmas = f.unlinked->size();
        for (const auto& t : f.trees) {
            linkBytes += t->linkBytes();
            linked += t->size();
        }
    }
    r.linkBytesPerVma = linked ? static_cast<double>(linkBytes) / static_cast<double>(linked) : 0;
    r.memoryPerInodeBytes =
        cfg.policy.memoryPerInodeBytes(files.empty() ? 1 : files[0].trees.size());

    r.walks = walkLatencies.count();
    r.walksSkipped = walksSkipped;
    r.overload = overload;
    r.walkVmasMean =
        walksStarted ? static_cast<double>(walkVmasFound) / static_cast<double>(walksStarted) : 0;
    latencyStats(walkLatencies, r.walkerLatencyMeanNs, r.walkerLatencyP99Ns);
    CostCounters{holds, treeOps, pricer.reads}.writeTo(r);
    const CacheModel::Counters& cc = cache->counters();
    r.cacheHits = cc.hits;
    r.cacheL1Hits = cc.l1Hits;
    r.cacheTransfers = cc.transfers;
    r.cacheMemoryReads = cc.memory;
    r.cacheUpgrades = cc.upgrades;
    r.lockLineTransfers = lockLineTransfers;
    r.events = queue.scheduledCount();
    r.sharedLines = shared->results();
    return r;
}

}  // namespace immap::sim
