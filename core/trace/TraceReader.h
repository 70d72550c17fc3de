#pragma once
// Streams a native trace: the header, then one event at a time, up to the end record. At the
// first truncated or malformed line, or at the end of a file that has no end record (a run
// killed, a file cut on a line boundary), it stops, keeps everything before it, and says where
// and why: such a trace is reported as cut, never as complete.

#include <cstdio>
#include <memory>
#include <string>

#include "sim/Simulator.h"
#include "trace/TraceHeader.h"

namespace immap::trace {

class TraceReader {
public:
    // Throws TraceError when the file cannot be opened or its header is not a trace's.
    explicit TraceReader(const std::string& path);
    ~TraceReader();
    TraceReader(const TraceReader&) = delete;
    TraceReader& operator=(const TraceReader&) = delete;

    const TraceHeader& header() const { return header_; }
    // The next event; false at the end or at a bad line (then error() says which and why).
    bool next(sim::SimEvent& e);
    // "" after a clean end; otherwise "FILE:LINE: reason".
    const std::string& error() const { return error_; }
    std::uint64_t errorLine() const { return errorLine_; }
    const std::string& errorReason() const { return errorReason_; }
    std::uint64_t line() const { return line_; }
    std::uint64_t bytesRead() const { return consumed_; }
    // True once the end record has been read: the recording is whole.
    bool complete() const { return complete_; }
    // The latest event time read so far (ns); for a cut trace, how far its statistics reach.
    std::int64_t lastTime() const { return lastTime_; }
    // Goes back (or forward) to a line start seen earlier: `offset` = bytesRead(), `line` =
    // line() and `events` = the events read by then. Clears any error.
    void seek(std::uint64_t offset, std::uint64_t line, std::uint64_t events);
    const std::string& path() const { return path_; }

private:
    bool fill();

    std::string path_;
    std::FILE* file_ = nullptr;
    TraceHeader header_;
    std::string buf_;
    std::size_t pos_ = 0;
    bool eof_ = false;
    std::uint64_t line_ = 0;
    std::uint64_t consumed_ = 0;
    std::uint64_t events_ = 0;
    std::int64_t lastTime_ = 0;
    bool complete_ = false;
    std::uint64_t endLine_ = 0;
    std::string error_;
    std::uint64_t errorLine_ = 0;
    std::string errorReason_;
    void fail(std::uint64_t line, const std::string& reason);
    // The recording stops early at `line`, for `why`: says so, with how far it reaches.
    void cut(std::uint64_t line, const std::string& why);
};

}  // namespace immap::trace
