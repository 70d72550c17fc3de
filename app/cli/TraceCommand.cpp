#include "TraceCommand.h"

#include <QCommandLineParser>
#include <iostream>

#include "InputErrors.h"
#include "trace/BpftraceImport.h"
#include "trace/PerfettoExport.h"
#include "trace/TraceError.h"
#include "trace/TraceReader.h"
#include "trace/TraceReplay.h"
#include "trace/TraceStats.h"

namespace immap::cli {

namespace {

const char* kTraceUsage =
    "usage: immap trace import RECORDING -o OUT      bpftrace output of record-mappings.bt -> "
    "native trace\n"
    "       immap trace stats TRACE [--json]          events, execs, per-file inserts/removes/lock "
    "holds\n"
    "       immap trace replay TRACE [--json]         rebuild the trees and the run's statistics\n"
    "       immap trace export TRACE --perfetto OUT.json | --csv OUT.csv\n";

int usage(const std::string& message) {
    std::cerr << "immap trace: " << message << "\n" << kTraceUsage;
    return kBadInput;
}

template <class Fn>
int guarded(Fn&& fn) {
    try {
        return fn();
    } catch (const trace::TraceError& e) {
        std::cerr << e.what() << '\n';
        return kBadInput;
    }
}

}  // namespace

int traceCommand(const QStringList& args) {
    if (args.size() < 2 || args[1] == "--help" || args[1] == "-h") {
        std::cout << kTraceUsage;
        return args.size() < 2 ? kBadInput : 0;
    }
    const QString sub = args[1];
    QCommandLineParser p;
    p.addOption({{"o", "output"}, "Output file.", "OUT"});
    p.addOption({"json", "JSON output."});
    p.addOption({"perfetto", "Chrome/Perfetto trace-event JSON.", "OUT"});
    p.addOption({"csv", "Lock statistics as CSV.", "OUT"});
    if (!p.parse(args.mid(1))) return usage(p.errorText().toStdString());
    const QStringList pos = p.positionalArguments();
    if (pos.size() != 1) return usage("expected exactly one input file");
    const std::string in = pos.first().toStdString();
    // One export per run: the reader streams the trace once.
    if (sub == "export" && p.isSet("perfetto") && p.isSet("csv"))
        return usage("export takes one of --perfetto or --csv, not both");
    return guarded([&]() -> int {
        if (sub == "import") {
            if (!p.isSet("o")) return usage("import needs -o OUT");
            if (auto rc = refuseOutput(p.value("o"), {in})) return *rc;
            const auto s = trace::BpftraceImport::run(in, p.value("o").toStdString());
            std::cerr << "immap trace import: " << s.lines << " lines, " << s.processes
                      << " processes, " << s.execs << " execs, " << s.files << " files -> "
                      << s.events << " events (" << s.inferred << " inferred) in "
                      << p.value("o").toStdString() << '\n';
            printWarnings(s.warnings);
            return 0;
        }
        trace::TraceReader reader(in);
        if (sub == "stats") {
            const trace::TraceStats s = trace::TraceStats::of(reader);
            if (p.isSet("json")) {
                std::cout << s.toJson();
            } else {
                std::cout << reader.header().source << ": " << s.events << " events, " << s.execs
                          << " execs, " << s.inferredEvents << " inferred\n";
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
        }
        if (sub == "replay") {
            trace::TraceReplay replay(reader.header());
            sim::SimEvent e;
            std::string reason;
            while (reader.next(e))
                if (!replay.apply(e, reason)) throw trace::TraceError(in, reader.line(), reason);
            if (!reader.complete()) replay.endsEarlyAt(reader.lastTime());
            const sim::SimResult r = replay.result();
            if (p.isSet("json")) {
                std::cout << r.toJson(true);
            } else {
                std::cout << replay.events() << " events replayed; " << r.execsPerSecond
                          << " execs/s over " << r.durationMs << " ms\n";
            }
            if (!reader.error().empty()) {
                std::cerr << reader.error() << '\n';
                return kBadInput;
            }
            return 0;
        }
        if (sub == "export") {
            for (const char* o : {"perfetto", "csv"})
                if (p.isSet(o))
                    if (auto rc = refuseOutput(p.value(o), {in})) return *rc;
            if (p.isSet("perfetto")) {
                const auto s = trace::exportPerfetto(reader, p.value("perfetto").toStdString());
                std::cerr << "immap trace export: " << s.slices << " slices on " << s.tracks
                          << " CPU tracks\n";
                return 0;
            }
            if (p.isSet("csv")) {
                trace::exportLockCsv(reader, p.value("csv").toStdString());
                return 0;
            }
            return usage("export needs --perfetto OUT.json or --csv OUT.csv");
        }
        return usage("unknown subcommand '" + sub.toStdString() + "'");
    });
}

}  // namespace immap::cli
