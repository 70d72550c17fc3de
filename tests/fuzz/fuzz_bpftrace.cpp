// The bpftrace importer: the input as a recording of record-mappings.bt, converted to a
// native trace that is then read back to its end.
#include <cstdint>
#include <string>

#include "FuzzFile.h"
#include "trace/BpftraceImport.h"
#include "trace/TraceError.h"
#include "trace/TraceReader.h"

using namespace immap;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static fuzz::FuzzFile in(".bt.txt");
    static fuzz::FuzzFile out(".out.trace");
    in.write(data, size);
    try {
        trace::BpftraceImport::run(in.path(), out.path());
    } catch (const trace::TraceError&) {
        return 0;  // refused, with the line and reason: fine
    }
    // Imported: the trace written must read to its end, header included.
    try {
        trace::TraceReader reader(out.path());
        sim::SimEvent e;
        while (reader.next(e)) {
        }
        if (!reader.error().empty()) __builtin_trap();
    } catch (const trace::TraceError&) {
        __builtin_trap();
    }
    return 0;
}
