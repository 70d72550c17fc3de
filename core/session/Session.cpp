#include "Session.h"

#include <algorithm>

#include "DefaultScenario.h"
#include "StepCaption.h"
#include "limits/Cancelled.h"
#include "procfs/ParseError.h"

namespace immap::session {

Session::Session() {
    settings_.bands = SimSettings::kAppBands;
}
Session::~Session() = default;

void Session::load(const std::string& source, const std::string& topology,
                   const std::string& fileName) {
    commit(stage(source, topology, fileName, split_));
}

Session::Staged Session::stage(const std::string& source, const std::string& topology,
                               const std::string& fileName, const mapping::Policy& split,
                               const std::atomic<bool>* cancel) {
    auto host =
        std::make_unique<mapping::LoadedHost>(mapping::HostLoader::load(source, topology, cancel));
    std::size_t index = 0;
    const auto& files = host->mappings.files();
    // Errors name the file the source read (a maps file's path), not the spec around it.
    const std::string where = host->snapshot.source.empty() ? source : host->snapshot.source;
    if (files.empty()) {
        // When every process was skipped, the reason is in the first skip, not in "nothing".
        const auto& skipped = host->mappings.skipped();
        std::string reason = "no file-backed mappings to show";
        if (!skipped.empty())
            reason += "; " + std::to_string(skipped.size()) + " process" +
                      (skipped.size() == 1 ? "" : "es") +
                      " skipped, the first: " + skipped.front().reason;
        throw procfs::ParseError(where, 0, reason);
    }
    if (const mapping::MappedFile* f =
            host->mappings.findFile(fileName.empty() ? kDefaultFile : fileName)) {
        index = static_cast<std::size_t>(f - files.data());
    } else if (!fileName.empty()) {
        throw procfs::ParseError(where, 0, "no single mapped file named '" + fileName + "'");
    }
    limits::Cancelled::check(cancel);
    Staged s;
    s.trees = std::make_unique<TreeSet>(files[index], host->mappings, *host->topology, split);
    s.host = std::move(host);  // the trees refer to the mappings, which stay where they are
    s.topology = topology;
    s.fileIndex = index;
    return s;
}

void Session::commit(Staged s) {
    trees_.reset();  // before the host it refers to
    host_ = std::move(s.host);
    topologySpec_ = std::move(s.topology);
    fileIndex_ = s.fileIndex;
    trees_ = std::move(s.trees);
    // Copy counts follow the machine: a new host gets its topology's default grid and one live
    // copy per PU; the rest of the settings stay (and the last sweep's results, which say which
    // machine they are of).
    settings_.copies.clear();
    live_.copies = 0;
}

void Session::loadDefault() {
    load(kDefaultSource, kDefaultTopology);
}

void Session::setTopology(const std::string& topologySpec) {
    const std::string source = loaded() ? host_->source : std::string(kDefaultSource);
    const std::string name = loaded() ? file().path : std::string();
    load(source, topologySpec, name);
}

std::vector<std::size_t> Session::fileOrder() const {
    std::vector<std::size_t> order(files().size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    auto isLibc = [&](std::size_t i) { return files()[i].name().rfind("libc.so", 0) == 0; };
    std::stable_partition(order.begin(), order.end(), isLibc);
    return order;
}

void Session::selectFile(std::size_t index) {
    if (index >= files().size()) return;
    fileIndex_ = index;
    rebuild();
}

bool Session::selectFile(std::string_view name) {
    const mapping::MappedFile* f = host_->mappings.findFile(name);
    if (!f) return false;
    selectFile(static_cast<std::size_t>(f - files().data()));
    return true;
}

void Session::setSplitPolicy(const mapping::Policy& p) {
    split_ = p;
    if (loaded()) rebuild();
}

void Session::rebuild() {
    trees_.reset();
    trees_ = std::make_unique<TreeSet>(file(), host_->mappings, *host_->topology, split_);
}

std::unique_ptr<Playback> Session::run(const std::vector<TreeOp>& ops) {
    // The rbtrees' kernel steps, or, when the trees are B-trees, the B-trees' (the rbtrees
    // beside them are then updated unrecorded).
    const bool btree = trees_->hasBTrees();
    auto steps = btree ? nullptr : std::make_unique<StepPlayer>(*trees_);
    auto frames = btree ? std::make_unique<BTreePlayer>(*trees_) : nullptr;
    std::vector<int> ids;
    for (const TreeOp& op : ops)
        ids.push_back(op.kind == TreeOp::Kind::Insert ? trees_->add(op.vma, op.comm) : op.id);
    // The single tree's updates first, then each VMA's split tree, so the animation tells one
    // tree's story at a time.
    for (int pass = 0; pass < 2; ++pass) {
        for (std::size_t i = 0; i < ops.size(); ++i) {
            const TreeId t = pass == 0 ? kSingleTree : trees_->splitTreeId(ids[i]);
            const bool insert = ops[i].kind == TreeOp::Kind::Insert;
            itree::StepRecorder* rec = btree ? nullptr : &steps->beginOp(t);
            BTreeRecorder* hook = nullptr;
            if (btree) {
                hook = &frames->beginOp(t);
                const mapping::Vma& v = trees_->entry(ids[i]).vma;
                hook->begin((insert ? "insert pid " : "remove pid ") + std::to_string(v.pid) +
                            " [" + StepCaption::hex(v.first()) + ", " + StepCaption::hex(v.last()) +
                            "]");
            }
            if (insert)
                trees_->link(ids[i], t, rec, hook);
            else
                trees_->unlink(ids[i], t, rec, hook);
            if (btree)
                frames->endOp(t);
            else
                steps->endOp(t);
        }
    }
    for (std::size_t i = 0; i < ops.size(); ++i)
        if (ops[i].kind == TreeOp::Kind::Remove) trees_->markDead(ids[i]);
    if (btree) return frames;
    return steps;
}

std::unique_ptr<BTreePlayer> Session::walkBTrees(itree::Index first, itree::Index last) const {
    auto player = std::make_unique<BTreePlayer>(*trees_);
    player->setQuery(true);
    const std::string range =
        "rmap walk of pages [" + StepCaption::hex(first) + ", " + StepCaption::hex(last) + "]";
    for (TreeId t = 0; t < static_cast<TreeId>(trees_->treeCount()); ++t) {
        BTreeRecorder& rec = player->beginOp(t);
        rec.begin(range, first, last);
        trees_->queryBTree(t, first, last, &rec);
        player->endOp(t);
    }
    return player;
}

std::unique_ptr<Playback> Session::runRecipe(const ProcessRecipe& r, std::int64_t pid, int node) {
    return run(r.ops(*trees_, pid, node));
}

std::int64_t Session::freshPid() const {
    std::int64_t top = 0;
    for (std::size_t i = 0; i < trees_->entryCount(); ++i)
        top = std::max(top, trees_->entry(static_cast<int>(i)).vma.pid);
    return top + 1;
}

sim::SimConfig Session::simConfig(const mapping::Policy& policy, unsigned copies) const {
    return settings_.config(*host_->topology, policy, copies);
}

unsigned Session::liveCopies() const {
    if (live_.copies > 0) return live_.copies;
    return static_cast<unsigned>(std::max<std::size_t>(1, host_->topology->pus().size()));
}

}  // namespace immap::session
