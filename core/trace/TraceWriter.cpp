#include "trace/TraceWriter.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "io/OutputTarget.h"
#include "sim/Recipe.h"
#include "topology/Topology.h"
#include "trace/TraceError.h"
#include "trace/TraceEvent.h"

namespace immap::trace {

TraceWriter::TraceWriter(const std::string& path) : path_(path) {
    if (const std::string why = io::OutputTarget::refusal(path, {}); !why.empty())
        throw TraceError(path, 0, why);
    // Beside the target, so that the final rename stays on one filesystem; hidden, and named
    // after the target so that leftovers of a killed run are recognisable.
    const std::filesystem::path target(path);
    const std::filesystem::path dir = target.parent_path().empty() ? "." : target.parent_path();
    std::string name = ".";
    name += target.filename().string();
    name += ".recording-XXXXXX";
    std::string tmpl = (dir / name).string();
    const int fd = ::mkostemp(tmpl.data(), O_CLOEXEC);
    if (fd < 0)
        throw TraceError(path, 0, std::string("cannot write the trace: ") + std::strerror(errno));
    tmpPath_ = tmpl;
    // mkostemp makes a private file (0600); the trace gets the old file's permissions, or those
    // a new file usually has.
    struct stat st {};
    ::fchmod(fd, ::stat(path.c_str(), &st) == 0 ? (st.st_mode & 07777) : 0644);
    file_ = ::fdopen(fd, "wb");
    if (!file_) {
        const int e = errno;
        ::close(fd);
        ::unlink(tmpPath_.c_str());
        throw TraceError(path, 0, std::string("cannot write the trace: ") + std::strerror(e));
    }
    buffer_.reserve(kBatchBytes + 256);
}

TraceWriter::~TraceWriter() {
    // Not closed: abandoned (an error or a cancel); the target stays as it was.
    if (file_) {
        std::fclose(file_);
        ::unlink(tmpPath_.c_str());
    }
}

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
    if (std::fwrite(buffer_.data(), 1, buffer_.size(), file_) != buffer_.size() ||
        std::fflush(file_) != 0)
        throw TraceError(path_, 0, std::string("write failed: ") + std::strerror(errno));
    buffer_.clear();
}

void TraceWriter::close(std::int64_t endTime) {
    if (!file_) return;
    if (started_) appendEndRecord(buffer_, std::max(endTime, lastTime_), events_);
    flush();
    const int rc = std::fclose(file_);
    file_ = nullptr;
    const int e = errno;
    // rename(2) replaces the target atomically: readers see the old file or the whole new one.
    if (rc != 0 || std::rename(tmpPath_.c_str(), path_.c_str()) != 0) {
        const int why = rc != 0 ? e : errno;
        ::unlink(tmpPath_.c_str());
        throw TraceError(
            path_, 0,
            std::string(rc != 0 ? "close failed: " : "cannot save: ") + std::strerror(why));
    }
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
    for (const sim::RecipeFile& f : recipe.files)
        h.files.push_back(f.name);
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
