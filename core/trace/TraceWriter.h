#pragma once
// Records a simulation (or an import) as a native trace while it runs: the header line, then
// one line per event, appended and flushed in batches to a temporary file beside the target,
// renamed over it by close(): a run that fails, is cancelled or killed leaves the target as it
// was (a killed run leaves its hidden ".NAME.recording-XXXXXX", whole lines only). Events that
// arrive before start() (a simulation's set-up, emitted while the Simulator is built and before
// its lock names are known) wait in memory until then.

#include <atomic>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>

#include "io/AtomicFile.h"
#include "sim/Simulator.h"
#include "trace/TraceHeader.h"

namespace immap::trace {

class TraceWriter final : public sim::SimObserver {
public:
    // Starts the temporary file. Throws TraceError when it cannot be made, or when `path` is
    // there and is not a regular file (io::OutputTarget).
    explicit TraceWriter(const std::string& path);
    ~TraceWriter() override;
    TraceWriter(const TraceWriter&) = delete;
    TraceWriter& operator=(const TraceWriter&) = delete;

    // Writes the header (once) and whatever was buffered.
    void start(const TraceHeader& header);
    void onEvent(const sim::SimEvent& e) override;
    // Writes out the buffer; throws TraceError on a write error (disk full, ...).
    void flush();
    // Ends the recording with its end record (the run's end at `endTime` ns, or the last
    // event's time when that is later), flushes, closes and renames over the target; throws
    // TraceError on failure. Destroyed without close(), the writer removes its temporary file
    // and leaves the target alone.
    void close(std::int64_t endTime = 0);
    const std::string& temporaryPath() const { return tmpPath_; }  // io::AtomicFile's

    std::uint64_t events() const { return events_; }
    static constexpr std::size_t kBatchBytes = 1 << 20;

private:
    std::string path_;
    std::string tmpPath_;
    std::unique_ptr<io::AtomicFile> file_;  // null once closed
    std::string buffer_;
    bool started_ = false;
    std::uint64_t events_ = 0;
    std::int64_t lastTime_ = 0;
};

// The header for a simulation about to be recorded.
TraceHeader headerFor(const sim::SimConfig& config, const sim::Simulator& sim);

// Runs `config` to its end recorded to `path` (its observer is replaced by the writer) and
// returns the run's result; the end record carries the run's end. With `cancel`, the run goes in 1
// ms slices of simulated time and stops when the flag is raised: nullopt, and `path` is left as it
// was. Throws TraceError when `path` cannot be written.
std::optional<sim::SimResult> recordRun(sim::SimConfig config, const std::string& path,
                                        const std::atomic<bool>* cancel = nullptr);

}  // namespace immap::trace
