#include "trace/TraceWriter.h"

#include <algorithm>
#include <cstdio>

#include "sim/Recipe.h"
#include "topology/Topology.h"
#include "trace/TraceError.h"
#include "trace/TraceEvent.h"

namespace immap::trace {

TraceWriter::TraceWriter(const std::string& path)
    : path_(path), file_(std::make_unique<io::AtomicFile>(path, "recording")) {
    if (!file_->ok()) throw TraceError(path, 0, file_->reason());
    tmpPath_ = file_->temporaryPath();
    buffer_.reserve(kBatchBytes + 256);
}

// Not closed: abandoned (an error or a cancel); io::AtomicFile leaves the target as it was.
TraceWriter::~TraceWriter() = default;

void TraceWriter::start(const TraceHeader& header) {
    if (started_) return;
    started_ = true;
    buffer_.insert(0, header.toLine() + "\n");
    flush();
}

void TraceWriter::onEvent(const sim::SimEvent& e) {
    appendEvent(buffer_, e);
    ++events_;
    lastTime_ = std::max(lastTime_, e.time);
    if (started_ && buffer_.size() >= kBatchBytes) flush();
}

void TraceWriter::flush() {
    if (!file_ || !started_ || buffer_.empty()) return;
    if (!file_->write(buffer_) || !file_->flush()) throw TraceError(path_, 0, file_->reason());
    buffer_.clear();
}

void TraceWriter::close(std::int64_t endTime) {
    if (!file_) return;
    if (started_) appendEndRecord(buffer_, std::max(endTime, lastTime_), events_);
    flush();
    const std::unique_ptr<io::AtomicFile> f = std::move(file_);
    if (!f->commit()) throw TraceError(path_, 0, f->reason());
}

TraceHeader headerFor(const sim::SimConfig& config, const sim::Simulator& sim) {
    const sim::Recipe& recipe = config.recipe ? *config.recipe : sim::Recipe::builtinDefault();
    TraceHeader h;
    h.source = "simulate";
    h.topology = config.topology ? config.topology->spec() : "";
    h.policy = config.policy.name();
    h.recipe = recipe.name;
    h.copies = config.copies;
    h.seed = config.seed;
    h.durationMs = config.durationMs;
    h.walkersPerSecond = config.walkersPerSecond;
    h.files = sim.fileNames();  // a per_copy file is one inode per copy
    h.treesPerFile = static_cast<unsigned>(sim.treesPerFile());
    h.copyCpus = sim.copyCpus();
    for (unsigned cpu : h.copyCpus)
        h.copyNodes.push_back(config.topology ? std::max(0, config.topology->nodeOfPu(cpu)) : 0);
    const std::vector<std::string> names = sim.lockNames();
    const std::vector<int> files = sim.lockFiles();
    for (std::size_t i = 0; i < names.size(); ++i)
        h.locks.push_back({names[i], files[i]});
    h.walkerFile = recipe.walkerFile;
    for (const sim::CostParams::Info& i : sim::CostParams::table())
        h.params[i.name] = config.params.*(i.field);
    return h;
}

std::optional<sim::SimResult> recordRun(sim::SimConfig config, const std::string& path,
                                        const std::atomic<bool>* cancel) {
    TraceWriter w(path);
    config.observer = &w;
    sim::Simulator s(config);
    w.start(headerFor(config, s));
    if (cancel) {
        for (sim::Time t = 1'000'000; s.runUntil(t); t += 1'000'000)
            if (*cancel) return std::nullopt;
    }
    const sim::SimResult r = s.run();
    w.close(s.now());
    return r;
}

}  // namespace immap::trace
