#pragma once
// Random access into a trace for scrubbing: one pass replays it and keeps a checkpoint (the
// replay's state and the file position) every `every` events; seeking restores the nearest
// checkpoint at or before the target and replays the rest, so a seek costs at most `every`
// events whatever the trace's length.

#include <memory>
#include <string>
#include <vector>

#include "trace/TraceReader.h"
#include "trace/TraceReplay.h"

namespace immap::trace {

class TraceCursor {
public:
    // Reads the whole trace once. Throws TraceError for an unreadable file or contradictory
    // events; a trace cut short is usable up to its last good line (see error()).
    explicit TraceCursor(const std::string& path, std::uint64_t every = 50'000);

    const TraceHeader& header() const { return reader_.header(); }
    std::uint64_t events() const { return events_; }     // good events in the file
    std::uint64_t position() const { return applied_; }  // events applied so far
    const std::string& error() const { return error_; }  // where the trace stopped early
    std::size_t checkpoints() const { return checkpoints_.size(); }

    // Applies exactly the first `applied` events (clamped to events()).
    void seek(std::uint64_t applied);
    // One event forward; false at the end. `e` is the event just applied.
    bool step(sim::SimEvent& e);

    const TraceReplay& replay() const { return *replay_; }
    // The last event applied (a default event at position 0).
    const sim::SimEvent& lastEvent() const { return last_; }

private:
    struct Checkpoint {
        std::uint64_t applied;
        std::uint64_t offset;
        std::uint64_t line;
        std::shared_ptr<const TraceReplay::Snapshot> state;
    };
    void apply(const sim::SimEvent& e);

    TraceReader reader_;
    std::unique_ptr<TraceReplay> replay_;
    std::vector<Checkpoint> checkpoints_;
    std::uint64_t events_ = 0;
    std::uint64_t applied_ = 0;
    std::string error_;
    std::int64_t cutAt_ = -1;  // a cut trace's last event time: its statistics end there
    sim::SimEvent last_;
};

}  // namespace immap::trace
