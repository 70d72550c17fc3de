#include "TraceCommand.h"

#include <iostream>

#include "CliCommand.h"
#include "InputErrors.h"
#include "trace/BpftraceImport.h"
#include "trace/ExecRate.h"
#include "trace/PerfettoExport.h"
#include "trace/TraceError.h"
#include "trace/TraceReader.h"
#include "trace/TraceReplay.h"
#include "trace/TraceStats.h"

namespace immap::cli {

namespace {

template <class Fn>
int guarded(Fn&& fn) {
    try {
        return fn();
    } catch (const trace::TraceError& e) {
        std::cerr << e.what() << '\n';
        return kBadInput;
    }
}

void addTraceArgument(CliCommand& p) {
    p.addPositional("TRACE", "A native trace (immap simulate --trace, immap trace import).");
}

}  // namespace

int traceImport(const QStringList& args) {
    CliCommand p("trace import",
                 "Turn the bpftrace output of record-mappings.bt into a native trace.");
    p.addOption({{"o", "output"}, "The native trace to write (replaced whole).", "OUT"});
    p.addPositional("RECORDING", "bpftrace output of record-mappings.bt.");
    if (auto rc = p.parse(args)) return *rc;
    if (!p.isSet("o")) return p.usageError("needs -o OUT");
    const std::string in = p.positionalArguments().first().toStdString();
    if (auto rc = refuseOutput(p.value("o"), {in})) return *rc;
    return guarded([&] {
        const auto s = trace::BpftraceImport::run(in, p.value("o").toStdString());
        std::cerr << "immap trace import: " << s.lines << " lines, " << s.processes
                  << " processes, " << s.execs << " execs, " << s.files << " files -> " << s.events
                  << " events (" << s.inferred << " inferred) in " << p.value("o").toStdString()
                  << '\n';
        printWarnings(s.warnings);
        return 0;
    });
}

int traceStats(const QStringList& args) {
    CliCommand p("trace stats",
                 "A trace's events and execs, and per file its inserts, removes and lock holds.");
    p.addOption({"json", "Print JSON."});
    addTraceArgument(p);
    if (auto rc = p.parse(args)) return *rc;
    const std::string in = p.positionalArguments().first().toStdString();
    return guarded([&] {
        trace::TraceReader reader(in);
        const trace::TraceStats s = trace::TraceStats::of(reader);
        if (p.isSet("json")) {
            std::cout << s.toJson();
        } else {
            std::cout << reader.header().source << ": " << s.events << " events, "
                      << s.inferredEvents << " inferred; " << s.rate.text() << '\n';
            for (const auto& f : s.files)
                std::cout << "  " << f.path << ": " << f.inserts << " inserts, " << f.removes
                          << " removes, " << f.lockHolds << " lock holds, " << f.finalVmas
                          << " VMAs at the end\n";
        }
        if (!s.error.empty()) {
            std::cerr << s.error << '\n';
            return kBadInput;
        }
        return 0;
    });
}

int traceReplay(const QStringList& args) {
    CliCommand p("trace replay", "Rebuild the trees from a trace, with the run's statistics.");
    p.addOption({"json", "Print the run's result as JSON (as immap simulate --json)."});
    addTraceArgument(p);
    if (auto rc = p.parse(args)) return *rc;
    const std::string in = p.positionalArguments().first().toStdString();
    return guarded([&] {
        trace::TraceReader reader(in);
        trace::TraceReplay replay(reader.header());
        sim::SimEvent e;
        std::string reason;
        trace::ExecRate rate;  // said as immap trace stats and the Replay tab say it
        std::int64_t first = 0, last = 0;
        while (reader.next(e)) {
            if (replay.events() == 0) first = e.time;
            last = e.time;
            rate.begins += e.kind == sim::SimEvent::ExecBegin;
            rate.ends += e.kind == sim::SimEvent::ExecEnd;
            if (!replay.apply(e, reason)) throw trace::TraceError(in, reader.line(), reason);
        }
        rate.spanNs = replay.events() ? last - first + 1 : 0;
        if (!reader.complete()) replay.endsEarlyAt(reader.lastTime());
        const sim::SimResult r = replay.result();
        if (p.isSet("json")) {
            std::cout << r.toJson(true);
        } else {
            std::cout << replay.events() << " events replayed; ";
            if (r.durationMs > 0)
                std::cout << r.execsPerSecond << " execs/s over the recorded run's measured "
                          << r.durationMs << " ms window (as immap simulate reports it)\n";
            else
                std::cout << "no measured window recorded; over the whole trace, " << rate.text()
                          << '\n';
        }
        if (!reader.error().empty()) {
            std::cerr << reader.error() << '\n';
            return kBadInput;
        }
        return 0;
    });
}

int traceExport(const QStringList& args) {
    CliCommand p("trace export",
                 "Export a trace: Chrome/Perfetto trace-event JSON, or lock statistics as CSV. "
                 "One export per run.");
    p.addOption({"perfetto", "Write Chrome/Perfetto trace-event JSON to OUT.", "OUT"});
    p.addOption({"csv", "Write the lock statistics as CSV to OUT.", "OUT"});
    addTraceArgument(p);
    if (auto rc = p.parse(args)) return *rc;
    const std::string in = p.positionalArguments().first().toStdString();
    // One export per run: the reader streams the trace once.
    if (p.isSet("perfetto") && p.isSet("csv"))
        return p.usageError("takes one of --perfetto or --csv, not both");
    if (!p.isSet("perfetto") && !p.isSet("csv"))
        return p.usageError("needs --perfetto OUT.json or --csv OUT.csv");
    const char* option = p.isSet("perfetto") ? "perfetto" : "csv";
    if (auto rc = refuseOutput(p.value(option), {in})) return *rc;
    return guarded([&] {
        trace::TraceReader reader(in);
        if (p.isSet("perfetto")) {
            const auto s = trace::exportPerfetto(reader, p.value("perfetto").toStdString());
            std::cerr << "immap trace export: " << s.slices << " slices on " << s.tracks
                      << " CPU tracks\n";
            return 0;
        }
        trace::exportLockCsv(reader, p.value("csv").toStdString());
        return 0;
    });
}

}  // namespace immap::cli
