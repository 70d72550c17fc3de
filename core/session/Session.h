#pragma once
// What one window shows, without a window (docs/architecture.md, "Sessions and the window"): the
// loaded host, the file being looked at, its trees as one tree and under a split policy, and the
// recorded updates the animation plays. The GUI wires views to it; tests drive it headless.

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "BTreePlayer.h"
#include "ProcessRecipe.h"
#include "SimSettings.h"
#include "StepPlayer.h"
#include "TreeSet.h"
#include "mapping/HostLoader.h"
#include "mapping/Policy.h"
#include "sim/SimResult.h"
#include "trace/Bookmarks.h"
#include "trace/TraceCursor.h"

namespace immap::session {

class Session {
public:
    Session();
    ~Session();

    // Loads a source spec with an optional topology spec, then shows `file` (libc.so.6 when
    // empty and present, else the file with most VMAs). Throws procfs::ParseError or
    // topology::TopologyError naming file, line and reason; on a throw nothing changes.
    void load(const std::string& source, const std::string& topology = {},
              const std::string& file = {});
    // load() in two halves, so that the slow half can run on a worker while the window goes on
    // showing the old host: stage() reads, checks and builds everything (throwing as load()
    // does, or limits::Cancelled once `cancel` is raised) and touches no session; commit()
    // makes the result this session's, on the thread that owns it.
    struct Staged {
        std::unique_ptr<mapping::LoadedHost> host;
        std::string topology;
        std::size_t fileIndex = 0;
        std::unique_ptr<TreeSet> trees;
    };
    static Staged stage(const std::string& source, const std::string& topology,
                        const std::string& file, const mapping::Policy& split,
                        const std::atomic<bool>* cancel = nullptr);
    void commit(Staged staged);
    void loadDefault();
    // Loads a topology for the current source (reloading it), as File > Open of a topology XML.
    void setTopology(const std::string& topologySpec);

    bool loaded() const { return host_ != nullptr; }
    const mapping::LoadedHost& host() const { return *host_; }
    const std::string& topologySpec() const { return topologySpec_; }
    const std::vector<mapping::MappedFile>& files() const { return host_->mappings.files(); }
    // The picker's order: libc first, then by VMA count (as files() already is).
    std::vector<std::size_t> fileOrder() const;
    std::size_t fileIndex() const { return fileIndex_; }
    const mapping::MappedFile& file() const { return files()[fileIndex_]; }
    void selectFile(std::size_t index);
    bool selectFile(std::string_view name);  // false if no such single file

    // The split side: per-node trees (split-trees) by default; sharded:K on request. Rebuilds
    // the trees from the file's VMAs (exec/exit changes made since are dropped).
    const mapping::Policy& splitPolicy() const { return split_; }
    void setSplitPolicy(const mapping::Policy& p);

    TreeSet& trees() { return *trees_; }
    const TreeSet& trees() const { return *trees_; }

    // Runs ops on every tree at once (the single tree's first, then the split trees'), recorded;
    // the returned player replays them from the state before: the rbtrees' kernel steps
    // (StepPlayer), or the B-trees' (BTreePlayer) when the policy's structure is the B-tree.
    std::unique_ptr<Playback> run(const std::vector<TreeOp>& ops);
    std::unique_ptr<Playback> runRecipe(const ProcessRecipe& r, std::int64_t pid, int node);
    // An rmap walk's query of file pages [first, last] on every B-tree, step by step (only when
    // the trees have B-trees; the rbtrees' walk is WalkPlayer).
    std::unique_ptr<BTreePlayer> walkBTrees(itree::Index first, itree::Index last) const;
    // A pid no live VMA of this file uses, for exec.
    std::int64_t freshPid() const;

    // What the simulator runs with (the sweep grid, recipe, walkers, parameters, seed): every
    // run a window starts is made from these by SimSettings::config. Kept over loads, but for
    // the copy counts, which a load resets to the new machine's defaults.
    SimSettings& settings() { return settings_; }
    const SimSettings& settings() const { return settings_; }
    // settings().config() on the loaded topology (which must be loaded).
    sim::SimConfig simConfig(const mapping::Policy& policy, unsigned copies) const;
    // The contention tab's pair of policies and its copy count (0: one copy per PU).
    struct LiveChoice {
        std::string policyA = "single";
        std::string policyB = "split-locks";
        unsigned copies = 0;
        bool operator==(const LiveChoice&) const = default;
    };
    LiveChoice& live() { return live_; }
    const LiveChoice& live() const { return live_; }
    // The copies a live run gets on the loaded topology.
    unsigned liveCopies() const;
    // The last sweep's results, as the throughput tab shows them (kept until the next sweep).
    const std::vector<sim::SimResult>& sweepResults() const { return sweepResults_; }
    void setSweepResults(std::vector<sim::SimResult> runs) { sweepResults_ = std::move(runs); }
    // The trace on replay (recorded or imported): its file, the cursor over its events and the
    // bookmarks of its sidecar file. No cursor: no trace open.
    struct Replay {
        std::string path;
        std::unique_ptr<trace::TraceCursor> cursor;
        std::vector<trace::Bookmark> bookmarks;
    };
    Replay& replay() { return replay_; }
    const Replay& replay() const { return replay_; }

private:
    void rebuild();

    std::unique_ptr<mapping::LoadedHost> host_;
    std::string topologySpec_;
    std::size_t fileIndex_ = 0;
    mapping::Policy split_{mapping::Policy::Kind::SplitTrees, 0};
    std::unique_ptr<TreeSet> trees_;
    SimSettings settings_;
    LiveChoice live_;
    std::vector<sim::SimResult> sweepResults_;
    Replay replay_;
};

}  // namespace immap::session
