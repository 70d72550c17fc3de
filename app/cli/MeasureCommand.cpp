#include "MeasureCommand.h"
#include "limits/InputLimits.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <optional>

#include "CliCommand.h"
#include "CliOutput.h"
#include "InputErrors.h"
#include "calib/Calibration.h"
#include "calib/FitFile.h"
#include "measure/ExeclBench.h"
#include "measure/TreeLockBench.h"
#include "topology/Topology.h"

namespace immap::cli {

namespace {

// $IMMAP_EXECL_HELPER, else immap-execl next to this executable.
std::string findHelper(const CliCommand& p) {
    if (p.isSet("helper")) return QFileInfo(p.value("helper")).absoluteFilePath().toStdString();
    const QByteArray env = qgetenv("IMMAP_EXECL_HELPER");
    if (!env.isEmpty())
        return QFileInfo(QString::fromLocal8Bit(env)).absoluteFilePath().toStdString();
    return QDir(QCoreApplication::applicationDirPath()).filePath("immap-execl").toStdString();
}

std::string num(double v, int decimals) {
    return CliOutput::fixed(v, decimals);
}

}  // namespace

int benchExecl(const QStringList& args) {
    CliCommand p("bench execl",
                 "UnixBench execl on this host: N copies of immap-execl re-exec themselves until a "
                 "deadline; execs/s summed over copies, mean and stddev over the repeats.");
    p.addOption({"copies", "Comma-separated copy counts.", "LIST", "1,2"});
    p.addOption({"seconds", "Length of each run.", "S", "2"});
    p.addOption({"repeat", "Runs per copy count.", "R", "3"});
    p.addOption({"helper",
                 "The execl helper (default: $IMMAP_EXECL_HELPER, else immap-execl "
                 "next to immap).",
                 "PATH"});
    p.addOption({"json", "Print the immap-measured JSON (docs/measurements.md)."});
    p.addOption({"output", "Also write the immap-measured JSON to FILE.", "FILE"});
    if (auto rc = p.parse(args)) return *rc;
    measure::ExeclBenchConfig cfg;
    std::string error;
    if (!CliCommand::parseCounts(
            p.value("copies"), "copies",
            static_cast<unsigned>(limits::InputLimits::range("bench_copies").max), cfg.copies,
            error))
        return p.usageError(error);
    if (!CliCommand::parseNumber(p.value("seconds"), cfg.seconds) || cfg.seconds <= 0 ||
        cfg.seconds > 3600)
        return p.usageError("--seconds must be a number of seconds above 0, at most 3600");
    bool ok = false;
    cfg.repeat = p.value("repeat").toUInt(&ok);
    if (!ok || cfg.repeat == 0 || cfg.repeat > 1000)
        return p.usageError("--repeat must be a whole number from 1 to 1000");
    cfg.helper = findHelper(p);
    // Asked now, not after minutes of measuring.
    if (p.isSet("output"))
        if (auto rc = refuseOutput(p.value("output"), {cfg.helper})) return *rc;
    measure::MeasuredCurve curve;
    try {
        curve = measure::ExeclBench::run(cfg);
    } catch (const measure::MeasureError& e) {
        std::cerr << "immap " << p.path().toStdString() << ": " << e.what() << '\n';
        return 1;
    }
    const topology::Topology host = topology::Topology::fromSpec("host");
    curve.pus = static_cast<unsigned>(host.pus().size());
    curve.nodes = static_cast<unsigned>(host.nodeCount());
    const std::string json = curve.toJson();
    if (p.isSet("output") && !CliOutput::writeAtomically(p.value("output"), json, error)) {
        std::cerr << "immap " << p.path().toStdString() << ": cannot write " << error << '\n';
        return 1;
    }
    if (p.isSet("json")) {
        std::cout << json;
        return 0;
    }
    std::cout << "execl on " << curve.host << " (Linux " << curve.kernel << ", " << curve.pus
              << " PUs, " << curve.nodes << " NUMA node" << (curve.nodes == 1 ? "" : "s") << "), "
              << num(cfg.seconds, 2) << " s per run, " << cfg.repeat << " repeat"
              << (cfg.repeat == 1 ? "" : "s")
              << "; load average before: " << num(curve.loadAverage, 2) << "\n"
              << "copies     execs/s    stddev   per copy  vs 1 copy\n";
    double single = 0;
    for (const auto& pt : curve.points)
        if (pt.copies == 1) single = pt.execsPerSecond;
    for (const auto& pt : curve.points) {
        char line[160];
        std::snprintf(line, sizeof line, "%6u %11.0f %9.0f %10.0f %10s\n", pt.copies,
                      pt.execsPerSecond, pt.stddev, pt.execsPerSecond / pt.copies,
                      single > 0 ? (num(pt.execsPerSecond / single, 2) + "x").c_str() : "-");
        std::cout << line;
    }
    return 0;
}

int benchTreeLocks(const QStringList& args) {
    CliCommand p(
        "bench tree-locks",
        "The default recipe's i_mmap inserts and removes run by pinned threads on shared trees "
        "under real locks, with unlocked spin work between holds.");
    p.addOption({"threads", "Comma-separated thread counts.", "LIST", "1,2"});
    p.addOption({"policy", "single or split-locks.", "P", "single"});
    p.addOption({"seconds", "Length of each run.", "S", "1"});
    p.addOption({"work-ns", "Unlocked spin work per exec, in ns.", "NS", "20000"});
    p.addOption({"work-lines-per-us",
                 "Cache lines the unlocked work writes per µs (the model's work_lines_per_us).",
                 "N", "10"});
    p.addOption(
        {"walkers", "Whole-file walkers per second (read side of every lock).", "PER_S", "0"});
    p.addOption({"json", "Print {\"format\": \"immap-tree-locks\", \"runs\": [...]}."});
    if (auto rc = p.parse(args)) return *rc;
    std::vector<unsigned> threads;
    std::string error;
    if (!CliCommand::parseCounts(p.value("threads"), "threads", 1024, threads, error))
        return p.usageError(error);
    const QString policy = p.value("policy");
    if (policy != "single" && policy != "split-locks")
        return p.usageError("--policy must be single or split-locks, not '" + policy.toStdString() +
                            "'");
    measure::TreeLockBenchConfig cfg;
    cfg.splitLocks = policy == "split-locks";
    if (!CliCommand::parseNumber(p.value("seconds"), cfg.seconds) || cfg.seconds <= 0 ||
        cfg.seconds > 3600)
        return p.usageError("--seconds must be a number of seconds above 0, at most 3600");
    if (!CliCommand::parseNumber(p.value("work-ns"), cfg.workNsPerExec) || cfg.workNsPerExec < 0 ||
        cfg.workNsPerExec > 1e9)
        return p.usageError("--work-ns must be from 0 to 1e9 nanoseconds");
    if (!CliCommand::parseNumber(p.value("work-lines-per-us"), cfg.workLinesPerUs) ||
        cfg.workLinesPerUs < 0 || cfg.workLinesPerUs > 1e4)
        return p.usageError("--work-lines-per-us must be from 0 to 1e4 lines per µs");
    if (!CliCommand::parseNumber(p.value("walkers"), cfg.walkersPerSecond) ||
        cfg.walkersPerSecond < 0 || cfg.walkersPerSecond > 1e6)
        return p.usageError("--walkers must be a rate from 0 to 1e6 per second");
    return reportingBadInput([&]() -> int {
        const topology::Topology host = topology::Topology::fromSpec("host");
        cfg.topology = &host;
        std::vector<measure::TreeLockResult> runs;
        for (unsigned t : threads) {
            cfg.threads = t;
            runs.push_back(measure::TreeLockBench::run(cfg));
        }
        if (p.isSet("json")) {
            std::cout << measure::TreeLockBench::toJson(runs);
            return 0;
        }
        const auto& first = runs.front();
        std::cout << "tree-locks, " << first.policy << ", on this host (" << host.pus().size()
                  << " PUs, " << first.nodes << " NUMA node" << (first.nodes == 1 ? "" : "s")
                  << "): " << first.locksPerFile << " lock" << (first.locksPerFile == 1 ? "" : "s")
                  << " per file, " << num(cfg.workNsPerExec / 1000, 1)
                  << " µs unlocked work per exec writing " << num(cfg.workLinesPerUs, 0)
                  << " lines/µs\n"
                  << "  a hold's mean includes one clock read: " << num(first.clockReadNs, 0)
                  << " ns here\n";
        if (!first.note.empty()) std::cout << "  note: " << first.note << "\n";
        std::cout << "threads    execs/s     holds/s  wait mean  hold mean  contended  pinned\n";
        for (const auto& r : runs) {
            char line[200];
            std::snprintf(
                line, sizeof line, "%7u %10.0f %11.0f %8.0f ns %7.0f ns %9.1f%% %7s\n", r.threads,
                r.execsPerSecond, r.holdsPerSecond, r.meanWaitNs, r.meanHoldNs,
                r.holds ? 100.0 * static_cast<double>(r.contended) / static_cast<double>(r.holds)
                        : 0.0,
                r.pinned ? "yes" : "no");
            std::cout << line;
            if (r.walkersPerSecond > 0)
                std::cout << "        walks: " << r.walks << ", mean " << num(r.walkMeanNs, 0)
                          << " ns\n";
        }
        return 0;
    });
}

int calibrateCommand(const QStringList& args) {
    CliCommand p(
        "calibrate",
        "Fit unlocked_ns_per_exec and lock_cost_scale to measured execl points (least squares "
        "on relative error; docs/measurements.md).");
    p.addOption({"measured", "immap-measured JSON (immap bench execl --json).", "FILE"});
    p.addOption({"topology", "Machine the points were measured on.", "SPEC", "host"});
    p.addOption({"duration-ms", "Simulated time per model run.", "MS", "300"});
    p.addOption({"seed", "Random seed of the model runs.", "S", "1"});
    p.addOption({"param", "Other cost-model parameters, repeatable.", "NAME=VALUE"});
    p.addOption({"output", "Write the immap-fit JSON to FILE.", "FILE"});
    p.addOption({"json", "Print the immap-fit JSON."});
    if (auto rc = p.parse(args)) return *rc;
    if (!p.isSet("measured")) return p.usageError("--measured FILE is required");
    if (p.isSet("output"))
        if (auto rc = refuseOutput(p.value("output"),
                                   {p.value("measured").toStdString(),
                                    io::InputFile::fileOfSpec(p.value("topology").toStdString())}))
            return *rc;
    calib::CalibrationConfig cfg;
    if (!CliCommand::parseNumber(p.value("duration-ms"), cfg.durationMs) || cfg.durationMs <= 0 ||
        cfg.durationMs > 1e5)
        return p.usageError(
            "--duration-ms must be a positive number of milliseconds (at most 1e5)");
    if (!CliCommand::parseInteger(p.value("seed"), cfg.seed))
        return p.usageError("--seed must be a non-negative integer");
    for (const QString& a : p.values("param")) {
        std::string error;
        if (!cfg.base.setFromText(a.toStdString(), error)) return p.usageError(error);
    }
    measure::MeasuredCurve curve;
    try {
        curve = measure::MeasuredCurve::fromFile(p.value("measured").toStdString());
    } catch (const measure::MeasureError& e) {
        std::cerr << e.what() << '\n';
        return kBadInput;
    }
    for (const auto& pt : curve.points)
        cfg.points.push_back({pt.copies, pt.execsPerSecond});
    return reportingBadInput([&]() -> int {
        const topology::Topology topo =
            topology::Topology::fromSpec(p.value("topology").toStdString());
        cfg.topology = &topo;
        calib::CalibrationResult fit;
        try {
            fit = calib::Calibration::fit(cfg);
        } catch (const calib::CalibError& e) {
            std::cerr << "immap " << p.path().toStdString() << ": " << e.what() << '\n';
            return kBadInput;
        }
        calib::FitSource src{topo.spec(), p.value("measured").toStdString(), curve.host,
                             cfg.durationMs, cfg.seed};
        const std::string json = calib::FitFile::toJson(fit, src);
        std::string error;
        if (p.isSet("output") && !CliOutput::writeAtomically(p.value("output"), json, error)) {
            std::cerr << "immap " << p.path().toStdString() << ": cannot write " << error << '\n';
            return 1;
        }
        if (p.isSet("json")) {
            std::cout << json;
            return 0;
        }
        std::cout << "fit to " << src.measured << " (" << curve.host << ") on " << topo.spec()
                  << ", " << fit.evaluations << " model evaluations\n"
                  << "  unlocked_ns_per_exec = " << num(fit.unlockedNsPerExec, 0) << " ns"
                  << (fit.unlockedAtBound ? " (at its bound: the model cannot take this shape)"
                                          : "")
                  << "\n"
                  << "  lock_cost_scale      = " << num(fit.lockCostScale, 3)
                  << (fit.scaleFitted ? "" : " (not fitted: one copy count)")
                  << (fit.scaleAtBound ? " (at its bound: the points barely constrain it)" : "")
                  << "  (locked time per uncontended exec: "
                  << num(fit.lockedNsPerExec * fit.lockCostScale / 1000, 1) << " µs)\n"
                  << "copies   measured   fitted  error   default  error\n";
        for (const auto& pt : fit.points) {
            char line[160];
            std::snprintf(line, sizeof line, "%6u %10.0f %8.0f %+5.1f%% %9.0f %+6.1f%%\n",
                          pt.copies, pt.measured, pt.predicted, 100 * pt.relError,
                          pt.defaultPredicted, 100 * pt.defaultRelError);
            std::cout << line;
        }
        std::cout << "  rms relative error: " << num(100 * fit.rmsRelError, 2) << "% (defaults "
                  << num(100 * fit.defaultRmsRelError, 2) << "%)\n";
        if (p.isSet("output"))
            std::cout << "  fit written to " << p.value("output").toStdString()
                      << " (immap simulate --fit FILE)\n";
        return 0;
    });
}

}  // namespace immap::cli
