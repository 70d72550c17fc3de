#pragma once
// One event per line (docs/trace-format.md): "TIME CODE AGENT CPU [fields]", CODE followed by
// '*' when the event is inferred rather than recorded. Written and read here only.

#include <cstdint>
#include <string>

#include "sim/Simulator.h"
#include "trace/TraceHeader.h"

namespace immap::trace {

// The latest event time a reader accepts: 2^62 ns, about 146 years.
inline constexpr std::int64_t kMaxEventTime = std::int64_t{1} << 62;

// Appends the event's line, newline included.
void appendEvent(std::string& out, const sim::SimEvent& e);

// The recording's last line, "TIME en -1 -1 EVENTS": the run's end and how many event lines
// came before it. A reader that reaches the end of the file without it knows the recording was
// cut (killed, or the file truncated on a line boundary) rather than complete.
void appendEndRecord(std::string& out, std::int64_t time, std::uint64_t events);

enum class EndRecord : std::uint8_t { No, Yes, Malformed };
// Whether the line (no newline) is an end record; when it is, its time and count.
EndRecord parseEndRecord(const char* begin, const char* end, std::int64_t& time,
                         std::uint64_t& events);

// Parses one line (no newline). False with the reason when it is not a well-formed event or
// names a lock, file or tree beyond the header's counts: replay builds the trees the header
// declares and no more, so what a trace costs is bounded by its header.
bool parseEvent(const char* begin, const char* end, const TraceHeader& header, sim::SimEvent& e,
                std::string& reason);

}  // namespace immap::trace
