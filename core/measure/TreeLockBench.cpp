#include "measure/TreeLockBench.h"

#include <hwloc.h>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <shared_mutex>
#include <stdexcept>
#include <thread>

#include "itree/IntervalTree.h"
#include "mapping/TreePlacement.h"
#include "sim/AddressSpace.h"
#include "sim/Simulator.h"
#include "topology/Topology.h"

namespace immap::measure {

namespace {

using Clock = std::chrono::steady_clock;

std::int64_t nowNs() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch())
        .count();
}

// One tree and its lock, on their own cache lines so that slots never share one.
struct alignas(64) Slot {
    std::shared_mutex lock;
    itree::IntervalTree tree;
};

struct Files {
    std::vector<std::vector<std::unique_ptr<Slot>>> perFile;  // [file][tree]
};

// Tree operations of a plan, unlocked: set-up before the threads start.
void executeUnlocked(Files& f, sim::AddressSpace& as, sim::Plan& plan) {
    for (const sim::TreeOp& op : plan.ops)
        sim::applyTreeOp(op,
                         f.perFile[static_cast<std::size_t>(op.vma->file)]
                                  [static_cast<std::size_t>(op.vma->tree)]
                                      ->tree,
                         as);
    plan.clear();
}

// The unlocked work: `lines` lines of a private buffer written (the exec's page faults and
// loader touch memory, which pushes the tree's lines out of the L1), then spin out the rest.
class Work {
public:
    static constexpr std::size_t kBytes = 256 * 1024;  // stays within a private L2
    Work() : buf_(kBytes / 64) {}
    void run(double ns, double linesPerUs) {
        if (ns <= 0) return;
        const std::int64_t until = nowNs() + static_cast<std::int64_t>(ns);
        const auto lines = static_cast<std::size_t>(std::llround(ns / 1000 * linesPerUs));
        for (std::size_t i = 0; i < lines; ++i) {
            buf_[next_].bytes[0] += 1;
            next_ = next_ + 1 == buf_.size() ? 0 : next_ + 1;
        }
        while (nowNs() < until) {
        }
    }

private:
    struct alignas(64) Line {
        unsigned char bytes[64] = {};
    };
    std::vector<Line> buf_;
    std::size_t next_ = 0;
};

// The median of back-to-back clock reads: the part of a measured hold that is the clock.
double clockReadNs() {
    std::vector<std::int64_t> d(100'000);
    for (auto& x : d) {
        const std::int64_t a = nowNs();
        x = nowNs() - a;
    }
    std::nth_element(d.begin(), d.begin() + static_cast<std::ptrdiff_t>(d.size() / 2), d.end());
    return static_cast<double>(d[d.size() / 2]);
}

struct alignas(64) Counters {
    std::uint64_t execs = 0, holds = 0, ops = 0, contended = 0;
    double waitNs = 0, holdNs = 0;
};

class HostBinder {
public:
    HostBinder() {
        if (hwloc_topology_init(&topo_) == 0 && hwloc_topology_load(topo_) == 0) ok_ = true;
    }
    ~HostBinder() {
        if (topo_) hwloc_topology_destroy(topo_);
    }
    // Pins the calling thread to one PU (OS index).
    bool pinThisThread(unsigned cpu) const {
        if (!ok_) return false;
        hwloc_bitmap_t set = hwloc_bitmap_alloc();
        hwloc_bitmap_only(set, cpu);
        const bool done = hwloc_set_cpubind(topo_, set, HWLOC_CPUBIND_THREAD) == 0;
        hwloc_bitmap_free(set);
        return done;
    }

private:
    hwloc_topology_t topo_ = nullptr;
    bool ok_ = false;
};

}  // namespace

TreeLockResult TreeLockBench::run(const TreeLockBenchConfig& cfg) {
    if (!cfg.topology) throw std::invalid_argument("no topology");
    if (cfg.threads == 0) throw std::invalid_argument("no threads");
    if (!(cfg.seconds > 0)) throw std::invalid_argument("seconds must be positive");
    const topology::Topology& topo = *cfg.topology;
    const sim::Recipe& recipe = cfg.recipe ? *cfg.recipe : sim::Recipe::builtinDefault();
    const unsigned nodes = std::max<unsigned>(1, static_cast<unsigned>(topo.nodeCount()));
    // The trees a file has and which one a VMA joins: the app's and the simulator's rule.
    const mapping::TreePlacement placement(
        mapping::Policy{
            cfg.splitLocks ? mapping::Policy::Kind::SplitLocks : mapping::Policy::Kind::Single, 0},
        topo);
    const auto trees = static_cast<unsigned>(placement.treeCount());
    const sim::BatchRule batch{8, cfg.splitLocks};  // split-locks unlinks one VMA per hold

    Files files;
    files.perFile.resize(recipe.files.size());
    for (auto& f : files.perFile)
        for (unsigned t = 0; t < trees; ++t)
            f.push_back(std::make_unique<Slot>());
    auto treesFor = [&](int cpu, int node) {
        return std::vector<std::int32_t>(recipe.files.size(),
                                         static_cast<std::int32_t>(placement.treeOf(cpu, node)));
    };
    auto nodeOf = [&](unsigned cpu) { return std::max(0, topo.nodeOfPu(cpu)); };

    // Other processes' final layouts of the shared libraries, homed round robin (as the
    // simulator's background_processes), so the trees are as deep as on a real host.
    sim::Recipe bg;
    bg.files = recipe.files;
    for (const sim::RecipeStep& s : recipe.steps)
        if (s.file >= 0 && recipe.files[static_cast<std::size_t>(s.file)].background)
            bg.steps.push_back(s);
    std::uint32_t setupIds = 0;
    std::vector<std::unique_ptr<sim::AddressSpace>> background;
    if (!bg.steps.empty()) {
        for (unsigned i = 0; i < cfg.backgroundProcesses; ++i) {
            const int node = static_cast<int>(i % nodes);
            auto as = std::make_unique<sim::AddressSpace>(-1, node);
            as->setIdSource(&setupIds);
            as->setTreeOfFile(treesFor(-1, node));
            sim::Plan plan;
            as->planSteps(bg, batch, plan);
            executeUnlocked(files, *as, plan);
            background.push_back(std::move(as));
        }
    }

    TreeLockResult r;
    r.policy = cfg.splitLocks ? "split-locks" : "single";
    r.threads = cfg.threads;
    r.nodes = nodes;
    r.locksPerFile = trees;
    r.workNsPerExec = cfg.workNsPerExec;
    r.workLinesPerUs = cfg.workLinesPerUs;
    r.walkersPerSecond = cfg.walkersPerSecond;
    r.cpus = sim::placeCopies(topo, cfg.threads);
    if (cfg.splitLocks && nodes == 1)
        r.note = "one NUMA node: split-locks has one tree and one lock per file, as single";

    // Each thread's address space holds its current image, as a copy's would.
    std::vector<std::unique_ptr<sim::AddressSpace>> spaces;
    std::vector<std::uint32_t> ids(cfg.threads, 0);  // per thread: ids only need to be unique
    for (unsigned t = 0; t < cfg.threads; ++t) {
        const int node = nodeOf(r.cpus[t]);
        auto as = std::make_unique<sim::AddressSpace>(static_cast<std::int32_t>(t), node);
        as->setIdSource(&ids[t]);
        as->setTreeOfFile(treesFor(static_cast<int>(r.cpus[t]), node));
        sim::Plan plan;
        as->planSteps(recipe, batch, plan);
        executeUnlocked(files, *as, plan);
        spaces.push_back(std::move(as));
    }

    const double weight = recipe.totalWeight();
    const double nsPerWeight = weight > 0 ? cfg.workNsPerExec / weight : 0;
    HostBinder binder;
    r.clockReadNs = clockReadNs();
    std::vector<Counters> counters(cfg.threads);
    std::atomic<unsigned> ready{0}, pinnedOk{0};
    std::atomic<bool> go{false};
    std::atomic<std::int64_t> deadline{0};

    auto worker = [&](unsigned t) {
        if (binder.pinThisThread(r.cpus[t])) ++pinnedOk;
        ++ready;
        while (!go.load(std::memory_order_acquire))
            std::this_thread::yield();
        const std::int64_t end = deadline.load();
        sim::AddressSpace& as = *spaces[t];
        Counters& c = counters[t];
        Work work;
        sim::Plan plan;
        while (nowNs() < end) {
            plan.clear();
            as.planSteps(recipe, batch, plan);
            for (const sim::Action& a : plan.actions) {
                if (a.kind == sim::Action::Work) {
                    work.run(a.weight * nsPerWeight, cfg.workLinesPerUs);
                    continue;
                }
                const sim::Hold& h = plan.holds[a.index];
                if (h.opCount == 0) continue;
                // A hold's operations are all on one tree: split pieces inherit it.
                const sim::TreeOp& first = plan.ops[h.firstOp];
                Slot& s = *files.perFile[static_cast<std::size_t>(h.file)]
                                        [static_cast<std::size_t>(first.vma->tree)];
                const std::int64_t asked = nowNs();
                if (!s.lock.try_lock()) {
                    s.lock.lock();
                    ++c.contended;
                }
                const std::int64_t held = nowNs();
                for (std::uint32_t k = 0; k < h.opCount; ++k) {
                    const sim::TreeOp& op = plan.ops[h.firstOp + k];
                    if (op.kind == sim::TreeOp::Insert) {
                        op.vma->start = op.start;
                        op.vma->last = op.last;
                        s.tree.insert(op.vma);
                    } else {
                        s.tree.remove(op.vma);
                    }
                }
                const std::int64_t done = nowNs();
                s.lock.unlock();
                // Freed VMAs go back to this thread's own pool only after the unlock.
                for (std::uint32_t k = 0; k < h.opCount; ++k) {
                    const sim::TreeOp& op = plan.ops[h.firstOp + k];
                    if (op.kind == sim::TreeOp::Remove && op.release) as.recycle(op.vma);
                }
                c.waitNs += static_cast<double>(held - asked);
                c.holdNs += static_cast<double>(done - held);
                ++c.holds;
                c.ops += h.opCount;
            }
            ++c.execs;
        }
    };

    // Whole-file walkers: every 1/rate seconds, read-lock every tree of the walker file in index
    // order and run the kernel's overlap query for one page.
    std::uint64_t walks = 0;
    double walkNs = 0;
    std::uint64_t walkerPages = 1;
    for (const sim::RecipeStep& s : recipe.steps)
        if (s.op == sim::StepOp::Mmap && !s.anon && s.file == recipe.walkerFile)
            walkerPages = std::max(walkerPages, s.pgoff + s.pages);
    auto walker = [&]() {
        while (!go.load(std::memory_order_acquire))
            std::this_thread::yield();
        const std::int64_t end = deadline.load();
        const double interval = 1e9 / cfg.walkersPerSecond;
        double next = static_cast<double>(nowNs());
        auto& walked = files.perFile[static_cast<std::size_t>(recipe.walkerFile)];
        std::uint64_t found = 0;
        for (std::uint64_t k = 0;; ++k) {
            next += interval;
            if (next >= static_cast<double>(end)) break;
            std::this_thread::sleep_until(
                Clock::time_point(std::chrono::nanoseconds(static_cast<std::int64_t>(next))));
            const itree::Index page = (k * 7919) % walkerPages;  // spread over the file
            const std::int64_t asked = nowNs();
            for (auto& s : walked)
                s->lock.lock_shared();
            for (auto& s : walked)
                for (itree::Node* n = s->tree.iterFirst(page, page); n;
                     n = itree::IntervalTree::iterNext(n, page, page))
                    ++found;
            for (auto it = walked.rbegin(); it != walked.rend(); ++it)
                (*it)->lock.unlock_shared();
            walkNs += static_cast<double>(nowNs() - asked);
            ++walks;
        }
        (void)found;
    };

    std::vector<std::thread> pool;
    for (unsigned t = 0; t < cfg.threads; ++t)
        pool.emplace_back(worker, t);
    std::thread walkerThread;
    if (cfg.walkersPerSecond > 0) walkerThread = std::thread(walker);
    while (ready.load() < cfg.threads)
        std::this_thread::yield();
    const std::int64_t start = nowNs();
    deadline = start + static_cast<std::int64_t>(cfg.seconds * 1e9);
    go.store(true, std::memory_order_release);
    for (auto& th : pool)
        th.join();
    if (walkerThread.joinable()) walkerThread.join();
    const std::int64_t stop = nowNs();

    r.pinned = pinnedOk.load() == cfg.threads;
    r.seconds = static_cast<double>(stop - start) / 1e9;
    double wait = 0, hold = 0;
    for (const Counters& c : counters) {
        r.execs += c.execs;
        r.holds += c.holds;
        r.treeOps += c.ops;
        r.contended += c.contended;
        wait += c.waitNs;
        hold += c.holdNs;
    }
    r.execsPerSecond = static_cast<double>(r.execs) / r.seconds;
    r.holdsPerSecond = static_cast<double>(r.holds) / r.seconds;
    r.treeOpsPerSecond = static_cast<double>(r.treeOps) / r.seconds;
    r.meanWaitNs = r.holds ? wait / static_cast<double>(r.holds) : 0;
    r.meanHoldNs = r.holds ? hold / static_cast<double>(r.holds) : 0;
    r.walks = walks;
    r.walkMeanNs = walks ? walkNs / static_cast<double>(walks) : 0;
    return r;
}

std::string TreeLockResult::toJson() const {
    QJsonObject o;
    o["policy"] = QString::fromStdString(policy);
    o["threads"] = static_cast<double>(threads);
    o["nodes"] = static_cast<double>(nodes);
    o["locks_per_file"] = static_cast<double>(locksPerFile);
    o["seconds"] = seconds;
    o["work_ns_per_exec"] = workNsPerExec;
    QJsonArray cs;
    for (unsigned c : cpus)
        cs.append(static_cast<double>(c));
    o["cpus"] = cs;
    o["pinned"] = pinned;
    o["execs"] = static_cast<double>(execs);
    o["holds"] = static_cast<double>(holds);
    o["tree_ops"] = static_cast<double>(treeOps);
    o["contended_holds"] = static_cast<double>(contended);
    o["execs_per_s"] = execsPerSecond;
    o["holds_per_s"] = holdsPerSecond;
    o["tree_ops_per_s"] = treeOpsPerSecond;
    o["wait_mean_ns"] = meanWaitNs;
    o["hold_mean_ns"] = meanHoldNs;
    o["clock_read_ns"] = clockReadNs;
    o["work_lines_per_us"] = workLinesPerUs;
    o["walkers_per_s"] = walkersPerSecond;
    o["walks"] = static_cast<double>(walks);
    o["walk_mean_ns"] = walkMeanNs;
    if (!note.empty()) o["note"] = QString::fromStdString(note);
    return QJsonDocument(o).toJson(QJsonDocument::Compact).toStdString();
}

std::string TreeLockBench::toJson(const std::vector<TreeLockResult>& runs) {
    QJsonArray a;
    for (const TreeLockResult& r : runs)
        a.append(QJsonDocument::fromJson(QByteArray::fromStdString(r.toJson())).object());
    QJsonObject o;
    o["format"] = "immap-tree-locks";
    o["version"] = 1;
    o["runs"] = a;
    return QJsonDocument(o).toJson(QJsonDocument::Indented).toStdString();
}

}  // namespace immap::measure
