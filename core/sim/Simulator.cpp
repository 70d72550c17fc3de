#include "sim/Simulator.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "itree/IntervalQuery.h"
#include "itree/IntervalTree.h"
#include "itree/TouchObserver.h"
#include "sim/AddressSpace.h"
#include "sim/EventQueue.h"
#include "sim/Random.h"
#include "sim/ResultMath.h"
#include "sim/RwSemModel.h"
#include "topology/Topology.h"

namespace immap::sim {

const char* simEventName(SimEvent::Kind k) {
    switch (k) {
        case SimEvent::ExecBegin:
            return "exec_begin";
        case SimEvent::ExecEnd:
            return "exec_end";
        case SimEvent::LockWait:
            return "lock_wait";
        case SimEvent::LockAcquire:
            return "lock_acquire";
        case SimEvent::LockRelease:
            return "lock_release";
        case SimEvent::TreeInsert:
            return "tree_insert";
        case SimEvent::TreeRemove:
            return "tree_remove";
        case SimEvent::WalkBegin:
            return "walk_begin";
        case SimEvent::WalkEnd:
            return "walk_end";
        case SimEvent::WalkArrive:
            return "walk_arrive";
        case SimEvent::WindowStart:
            return "window_start";
        case SimEvent::KernelLockWait:
            return "kernel_lock_wait";
        case SimEvent::KernelLockAcquired:
            return "kernel_lock_acquired";
    }
    return "?";
}

namespace {

using Mode = RwSemModel::Mode;
using Kind = mapping::Policy::Kind;

enum EventKind : std::uint32_t {
    kExecStart,
    kWorkDone,
    kAcquireDone,
    kCriticalDone,
    kRelease,
    kWalkerArrive,
    kWindowStart,
};

using Phase = PhaseClock::Phase;

struct Lock {
    RwSemModel sem;
    std::string name;
    int file = -1;
    // The lock word's cache line: touches are served one at a time (a line is in one place),
    // each paying the transfer from whoever touched it last.
    Time lineFree = 0;
    int lastCpu = -1;
    int lastNode = 0;
    int spinners = 0;  // writers optimistically spinning on it
};

struct FileState {
    std::string name;
    std::vector<std::unique_ptr<itree::IntervalTree>> trees;
    std::vector<int> treeLock;  // the lock guarding each tree
    int topLock = -1;           // sharded: the top-level rwsem
    std::uint64_t inserts = 0;
    std::uint64_t removes = 0;
    std::uint64_t pages = 1;  // file size in pages (for walkers)
};

struct LockReq {
    int lock;
    Mode mode;
};

struct Agent {
    bool copy = true;
    bool active = false;  // walkers: slot in use
    unsigned cpu = 0;
    int node = 0;
    // Acquisition in progress.
    std::vector<LockReq> locks;
    std::size_t next = 0;
    bool spinning = false;
    // Copies.
    std::unique_ptr<AddressSpace> as;
    Plan plan;
    std::size_t pc = 0;
    Time execStart = 0;
    std::uint64_t execsInWindow = 0;
    std::uint64_t execsDone = 0;
    Time firstExecEnd = -1;
    Time lastExecEnd = -1;
    PhaseClock clock;
    // Walkers.
    Time arrival = 0;
    std::uint64_t page = 0;
};

// Prices one update's node touches by distance from the updating CPU's node.
struct Pricer final : itree::TouchObserver {
    const double* row = nullptr;  // memory cost from this CPU's node to each home node
    double writeFraction = 0.5;
    double cost = 0;
    std::uint64_t reads = 0;
    const itree::Node* written[48];
    unsigned nWritten = 0;
    bool enabled = true;

    void start(const double* r) {
        row = r;
        cost = 0;
        nWritten = 0;
    }
    void read(const itree::Node* n) override {
        if (!enabled) return;
        ++reads;
        cost += row[static_cast<const SimVma*>(n)->home];
    }
    void write(const itree::Node* n) override {
        if (!enabled) return;
        for (unsigned i = 0; i < nWritten; ++i)
            if (written[i] == n) return;
        if (nWritten < std::size(written)) written[nWritten++] = n;
        cost += writeFraction * row[static_cast<const SimVma*>(n)->home];
    }
};

Time toTime(double ns) {
    return static_cast<Time>(std::llround(ns));
}

}  // namespace

struct Simulator::Impl {
    SimConfig cfg;
    const Recipe* recipe;
    const topology::Topology& topo;
    std::vector<unsigned> puOrder;  // OS indexes in logical order
    std::vector<int> shardOfPu;     // by position in puOrder
    std::vector<std::vector<double>> memCost;
    std::vector<unsigned> copyCpu;
    std::vector<Time> cpuFree;  // by position in puOrder
    std::vector<int> puPos;     // OS index -> position

    std::vector<FileState> files;
    std::vector<std::unique_ptr<Lock>> locks;
    std::vector<Agent> agents;  // copies first, then walker slots
    std::vector<std::size_t> freeWalkers;
    std::vector<std::unique_ptr<AddressSpace>> background;
    BatchRule batch;

    EventQueue queue;
    Rng rng;
    Pricer pricer;
    SimObserver* observer = nullptr;
    Time warmup = 0;
    Time end = std::numeric_limits<Time>::max() / 2;  // set when the window starts
    unsigned warmCopies = 0;                          // copies that have done their warm-up execs
    Time windowStart = 0;
    bool inWindow = false;
    double unlockedScale = 0;

    std::uint64_t holds = 0, treeOps = 0, treeReads = 0;
    std::uint32_t nextVmaId = 1;
    std::vector<Time> walkLatencies;

    explicit Impl(const SimConfig& c)
        : cfg(c),
          recipe(c.recipe ? c.recipe : &Recipe::builtinDefault()),
          topo(*c.topology),
          rng(c.seed),
          observer(c.observer) {}

    unsigned nodeCount() const { return static_cast<unsigned>(topo.nodeCount()); }
    int nodeOfCpu(unsigned os) const { return std::max(0, topo.nodeOfPu(os)); }

    void emit(SimEvent::Kind k, Time t, std::int64_t agent, int lock = -1,
              const SimVma* v = nullptr, Mode mode = Mode::Write) {
        if (!observer) return;
        SimEvent e;
        e.time = t;
        e.kind = k;
        e.agent = static_cast<std::int32_t>(agent);
        e.cpu = agent >= 0 ? static_cast<std::int32_t>(agents[static_cast<std::size_t>(agent)].cpu)
                           : -1;
        e.lock = lock;
        e.mode = mode == Mode::Read ? 1 : 0;
        if (lock >= 0) e.file = locks[static_cast<std::size_t>(lock)]->file;
        if (v) {
            e.file = v->file;
            e.tree = v->tree;
            e.home = v->home;
            e.start = v->start;
            e.last = v->last;
            e.vma = v->id;
        }
        observer->onEvent(e);
    }

    // --- set-up ---------------------------------------------------------------------------
    void setUp();
    int treeFor(int file, unsigned cpu, int node) const;
    std::vector<std::int32_t> treesFor(unsigned cpu, int node) const;
    void executeNow(Agent* owner, AddressSpace& as, Plan& plan);
    void applyOp(const TreeOp& op, FileState& f, itree::IntervalTree& tree, AddressSpace& as,
                 Time t, std::int64_t agent);

    // --- the engine -----------------------------------------------------------------------
    void setPhase(Agent& a, Phase p, Time t);
    void startExec(std::size_t id, Time t);
    void nextAction(std::size_t id, Time t);
    void beginLocked(std::size_t id, Time t);
    void acquireNext(std::size_t id, Time t);
    Time touchLine(Lock& l, const Agent& a, Time t);
    void enterCritical(std::size_t id, Time t);
    void criticalDone(std::size_t id, Time t);
    void release(std::size_t id, int lock, Time t);
    void granted(std::size_t id, Time at);
    void afterRelease(std::size_t id, Time t);
    void walkerArrive(Time t);
    void scheduleWalker(Time after);
    void handle(const Event& e);
    void startWindow(Time t);
    SimResult result(Time at) const;
};

int Simulator::Impl::treeFor(int file, unsigned cpu, int node) const {
    (void)file;
    switch (cfg.policy.kind) {
        case Kind::Single:
            return 0;
        case Kind::SplitTrees:
        case Kind::SplitLocks:
            return node;
        case Kind::Sharded:
            return shardOfPu[static_cast<std::size_t>(puPos[cpu])];
    }
    return 0;
}

std::vector<std::int32_t> Simulator::Impl::treesFor(unsigned cpu, int node) const {
    std::vector<std::int32_t> t(files.size());
    for (std::size_t f = 0; f < files.size(); ++f)
        t[f] = treeFor(static_cast<int>(f), cpu, node);
    return t;
}

// Applies a plan at once, untimed: the state before the measured run starts.
// One tree operation, counted and reported: a removal is reported while the VMA still has the
// interval it is removed with, an insert once it has its new one.
void Simulator::Impl::applyOp(const TreeOp& op, FileState& f, itree::IntervalTree& tree,
                              AddressSpace& as, Time t, std::int64_t agent) {
    if (op.kind == TreeOp::Remove) {
        emit(SimEvent::TreeRemove, t, agent, -1, op.vma);
        ++f.removes;
    } else {
        ++f.inserts;
    }
    applyTreeOp(op, tree, as);
    if (op.kind == TreeOp::Insert) emit(SimEvent::TreeInsert, t, agent, -1, op.vma);
}

void Simulator::Impl::executeNow(Agent* owner, AddressSpace& as, Plan& plan) {
    pricer.enabled = false;
    for (const Hold& h : plan.holds) {
        FileState& f = files[static_cast<std::size_t>(h.file)];
        for (std::uint32_t k = 0; k < h.opCount; ++k) {
            const TreeOp& op = plan.ops[h.firstOp + k];
            itree::IntervalTree& tree = *f.trees[static_cast<std::size_t>(op.vma->tree)];
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

    const unsigned nodes = std::max(1u, nodeCount());
    const auto& dist = topo.distances();
    memCost.assign(nodes, std::vector<double>(nodes, p.memLocalNs));
    for (unsigned a = 0; a < nodes && a < dist.size(); ++a)
        for (unsigned b = 0; b < nodes && b < dist[a].size(); ++b)
            memCost[a][b] = p.memoryNs(dist[a][b]);
    pricer.writeFraction = p.writeFraction;

    unsigned trees = 1;
    if (cfg.policy.kind == Kind::SplitTrees || cfg.policy.kind == Kind::SplitLocks) trees = nodes;
    if (cfg.policy.kind == Kind::Sharded) {
        const unsigned k = std::max(1u, cfg.policy.cpusPerShard);
        trees = static_cast<unsigned>((puOrder.size() + k - 1) / k);
        shardOfPu.resize(puOrder.size());
        for (std::size_t i = 0; i < puOrder.size(); ++i)
            shardOfPu[i] = static_cast<int>(i / k);
    }
    batch.perVma = cfg.policy.kind == Kind::SplitLocks;

    // File sizes, for walkers: the furthest page any mapping of the file reaches.
    files.resize(recipe->files.size());
    for (const RecipeStep& s : recipe->steps)
        if (s.op == StepOp::Mmap && !s.anon)
            files[static_cast<std::size_t>(s.file)].pages =
                std::max(files[static_cast<std::size_t>(s.file)].pages, s.pgoff + s.pages);

    auto addLock = [&](int file, std::string name) {
        auto l = std::make_unique<Lock>();
        l->file = file;
        l->name = std::move(name);
        locks.push_back(std::move(l));
        return static_cast<int>(locks.size() - 1);
    };
    for (std::size_t f = 0; f < files.size(); ++f) {
        FileState& fs = files[f];
        fs.name = recipe->files[f].name;
        for (unsigned t = 0; t < trees; ++t) {
            fs.trees.push_back(std::make_unique<itree::IntervalTree>());
            fs.trees.back()->setObserver(&pricer);
        }
        const int fi = static_cast<int>(f);
        switch (cfg.policy.kind) {
            case Kind::Single:
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
        a.as->planSteps(*recipe, batch, a.plan);
        executeNow(&a, *a.as, a.plan);
    }
    for (unsigned c = 0; c < cfg.copies; ++c) {
        const Time offset = toTime(rng.uniform() * std::max(1.0, p.unlockedNsPerExec));
        queue.schedule(offset, {0, kExecStart, c, 0});
    }

    warmup = toTime(p.warmupMs * 1e6);
    if (p.warmupExecs < 1) queue.schedule(warmup, {0, kWindowStart, 0, 0});
    if (cfg.walkersPerSecond > 0) scheduleWalker(0);
}

void Simulator::Impl::setPhase(Agent& a, Phase ph, Time t) {
    a.clock.set(ph, t, inWindow, windowStart);
}

void Simulator::Impl::startExec(std::size_t id, Time t) {
    Agent& a = agents[id];
    a.plan.clear();
    a.as->planSteps(*recipe, batch, a.plan);
    a.pc = 0;
    a.execStart = t;
    emit(SimEvent::ExecBegin, t, static_cast<std::int64_t>(id));
    nextAction(id, t);
}

void Simulator::Impl::nextAction(std::size_t id, Time t) {
    Agent& a = agents[id];
    if (a.pc == a.plan.actions.size()) {
        // Warm-up ends when every copy has done its warm-up execs and warmup_ms has passed.
        // The window may open right here; this exec then counts in it, so a trace says
        // "window start" first and a replay counts the same.
        if (++a.execsDone == static_cast<std::uint64_t>(cfg.params.warmupExecs) &&
            ++warmCopies == cfg.copies) {
            if (t >= warmup)
                startWindow(t);
            else
                queue.schedule(warmup, {0, kWindowStart, 0, 0});
        }
        emit(SimEvent::ExecEnd, t, static_cast<std::int64_t>(id));
        if (inWindow && t <= end) {
            ++a.execsInWindow;
            if (a.firstExecEnd < 0) a.firstExecEnd = t;
            a.lastExecEnd = t;
        }
        startExec(id, t);
        return;
    }
    const Action& act = a.plan.actions[a.pc];
    if (act.kind == Action::Work) {
        // Unlocked work runs on the copy's CPU; copies sharing a CPU take turns (FIFO).
        const double ns = act.weight * unlockedScale;
        Time& free = cpuFree[static_cast<std::size_t>(puPos[a.cpu])];
        const Time begin = std::max(t, free);
        const Time done = begin + toTime(ns);
        free = done;
        setPhase(a, Phase::Work, t);
        queue.schedule(done, {0, kWorkDone, static_cast<std::uint32_t>(id), 0});
        return;
    }
    beginLocked(id, t);
}

void Simulator::Impl::beginLocked(std::size_t id, Time t) {
    Agent& a = agents[id];
    const Hold& h = a.plan.holds[a.plan.actions[a.pc].index];
    const FileState& f = files[static_cast<std::size_t>(h.file)];
    const int tree = a.plan.ops[h.firstOp].vma->tree;
    a.locks.clear();
    if (f.topLock >= 0) a.locks.push_back({f.topLock, Mode::Read});  // modifiers share the top
    a.locks.push_back({f.treeLock[static_cast<std::size_t>(tree)], Mode::Write});
    a.next = 0;
    setPhase(a, Phase::Wait, t);
    acquireNext(id, t);
}

Time Simulator::Impl::touchLine(Lock& l, const Agent& a, Time t) {
    double ns = cfg.params.lockAtomicNs;
    if (l.lastCpu >= 0 && l.lastCpu != static_cast<int>(a.cpu))
        ns += memCost[static_cast<std::size_t>(l.lastNode)][static_cast<std::size_t>(a.node)];
    const Time begin = std::max(t, l.lineFree);
    l.lineFree = begin + toTime(ns);
    l.lastCpu = static_cast<int>(a.cpu);
    l.lastNode = a.node;
    return l.lineFree;
}

void Simulator::Impl::acquireNext(std::size_t id, Time t) {
    Agent& a = agents[id];
    if (a.next == a.locks.size()) {
        enterCritical(id, t);
        return;
    }
    const LockReq req = a.locks[a.next];
    Lock& l = *locks[static_cast<std::size_t>(req.lock)];
    if (l.sem.acquire(t, id, req.mode)) {
        emit(SimEvent::LockAcquire, t, static_cast<std::int64_t>(id), req.lock, nullptr, req.mode);
        ++a.next;
        granted(id, touchLine(l, a, t));
        return;
    }
    emit(SimEvent::LockWait, t, static_cast<std::int64_t>(id), req.lock, nullptr, req.mode);
    // Writers spin optimistically (osq_lock, then on the owner); readers go to sleep.
    a.spinning = a.copy && req.mode == Mode::Write;
    if (a.spinning) ++l.spinners;
}

void Simulator::Impl::enterCritical(std::size_t id, Time t) {
    Agent& a = agents[id];
    const CostParams& p = cfg.params;
    double ns = 0;
    for (const LockReq& r : a.locks)
        ns += p.spinTrafficNs * locks[static_cast<std::size_t>(r.lock)]->spinners;
    const double* row = memCost[static_cast<std::size_t>(a.node)].data();
    if (a.copy) {
        setPhase(a, Phase::Hold, t);
        const Hold& h = a.plan.holds[a.plan.actions[a.pc].index];
        FileState& f = files[static_cast<std::size_t>(h.file)];
        for (std::uint32_t k = 0; k < h.opCount; ++k) {
            const TreeOp& op = a.plan.ops[h.firstOp + k];
            itree::IntervalTree& tree = *f.trees[static_cast<std::size_t>(op.vma->tree)];
            pricer.start(row);
            applyOp(op, f, tree, *a.as, t, static_cast<std::int64_t>(id));
            ns += p.treeOpNs + pricer.cost;
            ++treeOps;
        }
        ++holds;
    } else {
        // A whole-file walk: every tree of the file, the kernel's pruned overlap query, and
        // the per-VMA work for each VMA mapping the pages.
        emit(SimEvent::WalkBegin, t, static_cast<std::int64_t>(id));
        const FileState& f = files[static_cast<std::size_t>(recipe->walkerFile)];
        const std::uint64_t first = a.page;
        const std::uint64_t last = a.page + static_cast<std::uint64_t>(p.walkerPages) - 1;
        double touch = 0;
        auto visit = [&](const itree::Node* n) {
            touch += row[static_cast<const SimVma*>(n)->home];
        };
        for (const auto& tree : f.trees) {
            touch += p.memLocalNs;  // the tree's root pointer
            for (itree::Node* n = itree::queryFirst(*tree, first, last, visit); n;
                 n = itree::queryNext(n, first, last, visit))
                ns += p.walkerVmaNs;
        }
        ns += touch;
    }
    // Nobody else touches the word of a lock held exclusively, so when every lock is held
    // for write the releases can be booked now: one event fewer per hold. Shared locks see
    // other readers' touches meanwhile and are released from their own event.
    bool exclusive = true;
    for (const LockReq& r : a.locks)
        exclusive = exclusive && r.mode == Mode::Write;
    if (exclusive) {
        criticalDone(id, t + toTime(ns));
    } else {
        queue.schedule(t + toTime(ns), {0, kCriticalDone, static_cast<std::uint32_t>(id), 0});
    }
}

void Simulator::Impl::criticalDone(std::size_t id, Time t) {
    Agent& a = agents[id];
    Time at = t;
    for (std::size_t i = a.locks.size(); i-- > 0;) {
        const int lock = a.locks[i].lock;
        at = touchLine(*locks[static_cast<std::size_t>(lock)], a, at);
        queue.schedule(
            at, {0, kRelease, static_cast<std::uint32_t>(id), static_cast<std::uint64_t>(lock)});
    }
}

void Simulator::Impl::release(std::size_t id, int lockIndex, Time t) {
    Lock& l = *locks[static_cast<std::size_t>(lockIndex)];
    emit(SimEvent::LockRelease, t, static_cast<std::int64_t>(id), lockIndex);
    for (const RwSemModel::Grant& g : l.sem.release(t, id)) {
        Agent& w = agents[g.requester];
        Time at = t;
        if (w.spinning) {
            --l.spinners;
            w.spinning = false;
        } else {
            at += toTime(cfg.params.wakeupNs);  // it was asleep
        }
        emit(SimEvent::LockAcquire, t, static_cast<std::int64_t>(g.requester), lockIndex, nullptr,
             g.mode);
        ++w.next;
        granted(g.requester, touchLine(l, w, at));
    }
    // The agent lets go of its locks last to first; after the first one it moves on.
    Agent& a = agents[id];
    if (!a.locks.empty() && a.locks.front().lock == lockIndex) afterRelease(id, t);
}

// A lock is ours once its word has arrived, at `at`. With every lock held the critical section
// starts; its tree updates run now, which is safe because nobody else can touch those trees
// before `at`. Otherwise the next acquisition waits for its own event, so that every lock
// model sees its calls in time order.
void Simulator::Impl::granted(std::size_t id, Time at) {
    Agent& a = agents[id];
    if (a.next == a.locks.size()) {
        enterCritical(id, at);
    } else {
        queue.schedule(at, {0, kAcquireDone, static_cast<std::uint32_t>(id), 0});
    }
}

void Simulator::Impl::afterRelease(std::size_t id, Time t) {
    Agent& a = agents[id];
    if (a.copy) {
        ++a.pc;
        nextAction(id, t);
        return;
    }
    emit(SimEvent::WalkEnd, t, static_cast<std::int64_t>(id));
    if (inWindow && a.arrival >= windowStart && t <= end) walkLatencies.push_back(t - a.arrival);
    a.active = false;
    freeWalkers.push_back(id);
}

void Simulator::Impl::scheduleWalker(Time after) {
    const double meanNs = 1e9 / cfg.walkersPerSecond;
    queue.schedule(after + std::max<Time>(1, toTime(rng.exponential(meanNs))),
                   {0, kWalkerArrive, 0, 0});
}

void Simulator::Impl::walkerArrive(Time t) {
    std::size_t id;
    if (!freeWalkers.empty()) {
        id = freeWalkers.back();
        freeWalkers.pop_back();
    } else {
        id = agents.size();
        agents.emplace_back();
    }
    Agent& a = agents[id];
    a.copy = false;
    a.active = true;
    a.cpu = puOrder[rng.below(puOrder.size())];
    a.node = nodeOfCpu(a.cpu);
    a.arrival = t;
    emit(SimEvent::WalkArrive, t, static_cast<std::int64_t>(id));
    const FileState& f = files[static_cast<std::size_t>(recipe->walkerFile)];
    const auto span = static_cast<std::uint64_t>(cfg.params.walkerPages);
    a.page = f.pages > span ? rng.below(f.pages - span + 1) : 0;
    a.locks.clear();
    if (f.topLock >= 0) {
        a.locks.push_back({f.topLock, Mode::Write});  // walkers exclude every modifier
    } else if (cfg.policy.kind == Kind::SplitLocks) {
        for (int l : f.treeLock)
            a.locks.push_back({l, Mode::Read});  // every lock, in order
    } else {
        a.locks.push_back({f.treeLock[0], Mode::Read});
    }
    a.next = 0;
    acquireNext(id, t);
    scheduleWalker(t);
}

// The measured window opens: statistics start afresh and the run's end is fixed.
void Simulator::Impl::startWindow(Time t) {
    inWindow = true;
    windowStart = t;
    end = t + toTime(cfg.durationMs * 1e6);
    emit(SimEvent::WindowStart, t, -1);
    for (auto& l : locks)
        l->sem.resetStats(t);
    for (Agent& a : agents)
        if (a.copy) a.clock.windowOpened(t);
}

void Simulator::Impl::handle(const Event& e) {
    const Time t = e.time;
    const std::size_t id = e.target;
    switch (e.kind) {
        case kExecStart:
            startExec(id, t);
            break;
        case kWorkDone:
            ++agents[id].pc;
            nextAction(id, t);
            break;
        case kAcquireDone:
            acquireNext(id, t);
            break;
        case kCriticalDone:
            criticalDone(id, t);
            break;
        case kRelease:
            release(id, static_cast<int>(e.payload), t);
            break;
        case kWalkerArrive:
            walkerArrive(t);
            break;
        case kWindowStart:
            if (!inWindow) startWindow(t);
            break;
    }
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
        r.execs += a.execsInWindow;
        copies.push_back({a.execsInWindow, a.firstExecEnd, a.lastExecEnd});
    }
    r.execsPerSecond = execsPerSecond(copies, from, at);

    for (const auto& l : locks)
        r.locks.push_back({l->name, l->file, l->sem.stats(std::max(at, from))});

    // Per CPU: the copies' phase times, the current phase closed at `at`.
    std::vector<CopyPlace> places;
    for (unsigned c = 0; c < cfg.copies; ++c)
        places.push_back({agents[c].cpu, agents[c].node, &agents[c].clock});
    r.cpus = cpuSplit(places, at, from, inWindow);

    for (const FileState& f : files)
        r.files.push_back(summarizeFile(f.name, f.trees, f.inserts, f.removes));
    r.memoryPerInodeBytes =
        cfg.policy.memoryPerInodeBytes(files.empty() ? 1 : files[0].trees.size());

    r.walks = walkLatencies.size();
    latencyStats(walkLatencies, r.walkerLatencyMeanNs, r.walkerLatencyP99Ns);
    r.lockHolds = holds;
    r.treeOps = treeOps;
    r.nodesPerTreeOp =
        treeOps ? static_cast<double>(pricer.reads) / static_cast<double>(treeOps) : 0;
    r.events = queue.scheduledCount();
    return r;
}

Simulator::Simulator(const SimConfig& config) {
    if (!config.topology) throw std::invalid_argument("simulate: no topology");
    if (config.copies == 0) throw std::invalid_argument("simulate: copies must be at least 1");
    if (!(config.durationMs > 0))
        throw std::invalid_argument("simulate: the duration must be positive");
    if (config.walkersPerSecond < 0)
        throw std::invalid_argument("simulate: walkers per second must be >= 0");
    d_ = std::make_unique<Impl>(config);
    d_->setUp();
}

Simulator::~Simulator() = default;

std::vector<std::string> Simulator::lockNames() const {
    std::vector<std::string> names;
    for (const auto& l : d_->locks)
        names.push_back(l->name);
    return names;
}

std::size_t Simulator::treesPerFile() const {
    return d_->files.empty() ? 1 : d_->files.front().trees.size();
}

std::vector<int> Simulator::lockFiles() const {
    std::vector<int> files;
    for (const auto& l : d_->locks)
        files.push_back(l->file);
    return files;
}

void Simulator::setObserver(SimObserver* observer) {
    d_->observer = observer;
}

bool Simulator::runUntil(Time until) {
    // d_->end is only known once the warm-up is over, so it is read again after every event.
    while (!d_->queue.empty() && d_->queue.nextTime() <= std::min(until, d_->end))
        d_->handle(d_->queue.pop());
    return until < d_->end;
}

SimResult Simulator::run() {
    runUntil(std::numeric_limits<Time>::max() / 4);
    return d_->result(d_->end);
}

Time Simulator::now() const {
    return d_->queue.now();
}

Time Simulator::endTime() const {
    return d_->end;
}

SimResult Simulator::result() const {
    return d_->result(std::max(d_->queue.now(), d_->windowStart));
}

const std::vector<unsigned>& Simulator::copyCpus() const {
    return d_->copyCpu;
}

}  // namespace immap::sim
