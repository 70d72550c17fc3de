// Native traces: TraceReader to the first bad line, every event through TraceReplay (as
// `immap trace replay`), then the same file through TraceStats (as `immap trace stats`).
#include <cstdint>
#include <string>

#include "FuzzFile.h"
#include "trace/TraceError.h"
#include "trace/TraceReader.h"
#include "trace/TraceReplay.h"
#include "trace/TraceStats.h"

using namespace immap;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static fuzz::FuzzFile file(".trace");
    file.write(data, size);
    try {
        trace::TraceReader reader(file.path());
        trace::TraceReplay replay(reader.header());
        sim::SimEvent e;
        std::string reason;
        while (reader.next(e))
            if (!replay.apply(e, reason)) break;
        if (!reader.complete()) replay.endsEarlyAt(reader.lastTime());
        (void)replay.result();
    } catch (const trace::TraceError&) {
    }
    try {
        trace::TraceReader reader(file.path());
        (void)trace::TraceStats::of(reader).toJson();
    } catch (const trace::TraceError&) {
    }
    return 0;
}
