#include "SimCommand.h"

#include <QFileInfo>
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>

#include "CacheOption.h"
#include "CliCommand.h"
#include "CliOutput.h"
#include "InputErrors.h"
#include "SweepReport.h"
#include "calib/FitFile.h"
#include "limits/InputLimits.h"
#include "mapping/HostLoader.h"
#include "session/DefaultScenario.h"
#include "session/FilesRead.h"
#include "session/Scenario.h"
#include "session/ScenarioResults.h"
#include "session/SimSettings.h"
#include "sim/Recipe.h"
#include "sim/Simulator.h"
#include "sim/Sweep.h"
#include "sim/SweepShard.h"
#include "topology/Topology.h"
#include "trace/TraceWriter.h"
#include "views/ThroughputView.h"

namespace immap::cli {

namespace {

void addCommonOptions(CliCommand& p) {
    const session::SimSettings defaults;
    p.addOption({"scenario",
                 "Start from a workshop scenario (docs/gui.md): its topology (or its source's), "
                 "grid, duration, seed, recipe, walkers and parameters; the options given beside "
                 "it win.",
                 "FILE"});
    // The product's default machine, the default scenario's (samples/topologies/README.md).
    p.addOption({"topology", "Machine: host, xml:FILE, synthetic:DESC[;distances=...].", "SPEC",
                 session::kDefaultTopology});
    p.addOption(
        {"duration-ms",
         "Least simulated time measured, after the warm-up; the window then lasts until "
         "every copy has completed window_execs execs and all of them window_total_execs. "
         "Every run ends within warmup_max_ms + window_max_ms of simulated time (5 s + 5 s "
         "by default; the larger of window_max_ms and MS); a warm-up that reaches its bound "
         "has no steady state: the result says why (overload) and measures MS of it.",
         "MS", QString::number(defaults.durationMs)});
    p.addOption(
        {"seed", "Random seed (copy start times, walkers).", "S", QString::number(defaults.seed)});
    p.addOption({"recipe", "Exec recipe JSON (default: the built-in execl recipe).", "FILE"});
    p.addOption({"walkers",
                 "Whole-file walkers per second (rmap walks on the walker file); a sweep also runs "
                 "every point without them, side by side (see --no-side-by-side). 0 to 1e6; at "
                 "most 65,536 walks in flight, and at most 1e10 VMA reads within a run's bound "
                 "(PER_S x (warmup_max_ms + window) x processes mapping the file).",
                 "PER_S", QString::number(defaults.walkersPerSecond)});
    p.addOption({"param", "Cost-model parameter, repeatable (see --list-params).", "NAME=VALUE"});
    CacheOption::add(p);
    p.addOption(
        {"fit", "Start from the parameters of an immap-fit file (immap calibrate).", "FILE"});
    p.addOption({"list-params", "List every cost-model parameter with unit, default and source."});
}

// What a command simulates: the machine, and the settings every run is made from (the same
// SimSettings a window's Session holds, so a scenario runs here as it runs in the app).
struct Common {
    std::optional<topology::Topology> topo;
    session::SimSettings settings;
};

// The machine a scenario runs on when --topology is not given: its topology, else its source's
// (as the app loads it), else the default one.
topology::Topology scenarioTopology(const session::Scenario& s, const std::string& path) {
    const std::string dir = QFileInfo(QString::fromStdString(path)).absolutePath().toStdString();
    const std::string spec = s.topologySpec(dir);
    if (!spec.empty()) return topology::Topology::fromSpec(spec);
    return std::move(*mapping::HostLoader::load(s.sourceSpec(dir)).topology);
}

// Returns an exit status on error, nothing when all went well.
std::optional<int> readCommon(const CliCommand& p, Common& c) {
    std::optional<session::Scenario> scenario;
    if (p.isSet("scenario")) {
        const std::string path = p.value("scenario").toStdString();
        scenario = session::Scenario::load(path);
        c.settings = session::SimSettings::fromScenario(*scenario, path);
    }
    session::SimSettings& s = c.settings;
    if (p.isSet("duration-ms") && (!CliCommand::parseNumber(p.value("duration-ms"), s.durationMs) ||
                                   s.durationMs <= 0 || s.durationMs > 1e7))
        return p.usageError(
            "--duration-ms must be a positive number of milliseconds (at most 1e7)");
    if (p.isSet("seed") && !CliCommand::parseInteger(p.value("seed"), s.seed))
        return p.usageError("--seed must be a non-negative integer");
    if (p.isSet("walkers")) {
        std::string range;
        if (!CliCommand::parseNumber(p.value("walkers"), s.walkersPerSecond))
            return p.usageError("--walkers must be a rate per second");
        if (!limits::InputLimits::check("walkers_per_s", s.walkersPerSecond, range, "--walkers"))
            return p.usageError(QString::fromStdString(range));
    }
    if (p.isSet("fit")) {
        // --param values given beside it still win.
        try {
            s.params = calib::FitFile::paramsFromFile(p.value("fit").toStdString());
        } catch (const calib::CalibError& e) {
            std::cerr << e.what() << '\n';
            return kBadInput;
        }
    }
    for (const QString& a : p.values("param")) {
        std::string error;
        if (!s.params.setFromText(a.toStdString(), error)) return p.usageError(error);
    }
    if (p.isSet("recipe")) s.useRecipeFile(p.value("recipe").toStdString());
    if (scenario && !p.isSet("topology"))
        c.topo = scenarioTopology(*scenario, p.value("scenario").toStdString());
    else
        c.topo = topology::Topology::fromSpec(p.value("topology").toStdString());
    return std::nullopt;
}

void listParams();

// The files the common options read, which no output may replace.
std::vector<std::string> commonInputs(const CliCommand& p) {
    session::FilesRead in;
    in.addSpec(p.value("topology").toStdString());
    for (const char* o : {"recipe", "fit"})
        if (p.isSet(o)) in.addFile(p.value(o).toStdString());
    if (p.isSet("scenario")) in.addScenario(p.value("scenario").toStdString());
    return in.files();
}

// Parses; answers --help and --list-params. An exit status when the command is already over,
// nothing when it should run.
std::optional<int> parseCommandLine(CliCommand& p, const QStringList& args) {
    if (auto rc = p.parse(args)) return rc;
    if (p.isSet("list-params")) {
        listParams();
        return 0;
    }
    return std::nullopt;
}

void listParams() {
    using limits::InputLimits;
    for (const sim::CostParams::Info& i : sim::CostParams::table()) {
        std::cout << i.name << " = " << InputLimits::number(i.defaultValue) << " " << i.unit
                  << "\n  " << i.meaning << "\n  valid: " << InputLimits::number(i.min) << " to "
                  << InputLimits::number(i.max) << "; plausible: "
                  << (i.low == i.high
                          ? "fixed (a setting, not uncertain)"
                          : InputLimits::number(i.low) + " to " + InputLimits::number(i.high))
                  << "\n  source: " << i.source << "\n";
    }
    // The same table every other command checks its counts against (limits::InputLimits).
    std::cout << "\nother inputs, valid ranges:\n";
    for (const InputLimits::Range& r : InputLimits::table())
        std::cout << "  " << r.name << ": " << InputLimits::number(r.min) << " to "
                  << InputLimits::number(r.max) << " " << r.unit << " (" << r.meaning << ")\n";
}

std::string fmt(double v, int decimals = 0) {
    return CliOutput::grouped(v, decimals);
}

std::string time(double ns) {
    return CliOutput::duration(ns);
}

void printText(const sim::SimResult& r, std::size_t maxLocks) {
    std::cout << r.policy << ", " << r.copies << " copies on " << r.topology << "\n"
              << "  " << fmt(r.execsPerSecond) << " execs/s (" << r.execs << " execs in "
              << fmt(r.durationMs) << " ms simulated after " << fmt(r.warmupMs, 1)
              << " ms warm-up; seed " << r.seed << ")\n"
              << "  execs per copy in the window: fewest " << r.execsPerCopyMin << ", mean "
              << fmt(r.copies ? static_cast<double>(r.execs) / r.copies : 0, 1);
    if (!r.overload.empty())
        std::cout << "\n  " << r.overload;
    else if (r.execsPerCopyMin < static_cast<std::uint64_t>(r.params.windowExecs))
        std::cout << ": fewer than window_execs (" << fmt(r.params.windowExecs)
                  << "), the window stopped at window_max_ms";
    std::cout << "\n";
    std::vector<const sim::LockResult*> locks;
    for (const sim::LockResult& l : r.locks)
        locks.push_back(&l);
    std::stable_sort(locks.begin(), locks.end(),
                     [](auto* a, auto* b) { return a->stats.utilisation > b->stats.utilisation; });
    std::cout
        << "  busiest locks: utilisation, arrivals, mean queue, wait mean / p50 / p99, mean hold\n";
    for (std::size_t i = 0; i < locks.size() && i < maxLocks; ++i) {
        const auto& s = locks[i]->stats;
        std::cout << "    " << locks[i]->name << ": " << fmt(s.utilisation, 3) << ", "
                  << fmt(s.arrivalsPerSecond) << "/s, " << fmt(s.meanQueueLength, 2) << ", "
                  << time(s.meanWait) << " / " << time(static_cast<double>(s.p50Wait)) << " / "
                  << time(static_cast<double>(s.p99Wait)) << ", " << time(s.meanHold) << "\n";
    }
    if (locks.size() > maxLocks)
        std::cout << "    (" << locks.size() - maxLocks << " more; --json lists all)\n";
    if (r.walkersPerSecond > 0 && r.walks == 0)  // no latency to show: not a latency of 0
        std::cout << "  whole-file walks: none completed in the window (each waited longer "
                     "than the window, gave up, or none arrived)\n";
    else if (r.walkersPerSecond > 0)
        std::cout << "  whole-file walks: " << r.walks << ", latency mean "
                  << time(r.walkerLatencyMeanNs) << ", p99 " << time(r.walkerLatencyP99Ns) << ", "
                  << fmt(r.walkVmasMean, 1) << " VMAs found per walk\n";
    for (const sim::FileResult& f : r.files)
        if (f.unlinkedVmas > 0)
            std::cout << "  " << f.name << ": " << f.unlinkedVmas
                      << " VMAs in no i_mmap tree (no-rmap): walkers cannot reach its pages\n";
    if (r.walksSkipped > 0)
        std::cout << "  trylock walks that gave up (a lock busy): " << r.walksSkipped << " of "
                  << r.walks + r.walksSkipped << "\n";
    std::cout << "  memory added per inode: " << r.memoryPerInodeBytes
              << " bytes; i_mmap linkage per VMA: " << fmt(r.linkBytesPerVma, 1) << " bytes\n"
              << "  " << fmt(static_cast<double>(r.lockHolds)) << " lock holds, "
              << fmt(r.nodesPerTreeOp, 1)
              << " lines read per tree op (rbtree nodes, or B-tree node lines and VMAs)\n";
}

}  // namespace

int simulateCommand(const QStringList& args) {
    CliCommand p("simulate", "Simulate N execl copies contending on the i_mmap locks.");
    addCommonOptions(p);
    p.addOption({"policy",
                 "single, split-trees, split-locks, sharded:K or no-rmap; btree (the B-tree index, "
                 "docs/btree.md), or btree+ before any of the others (btree+split-locks).",
                 "P", "single"});
    p.addOption({"copies", "Number of execl copies.", "N", "1"});
    p.addOption({"json", "Print the result as JSON."});
    p.addOption(
        {"trace", "Record every event to FILE (native trace, docs/trace-format.md).", "FILE"});
    if (auto rc = parseCommandLine(p, args)) return *rc;
    return reportingBadInput([&]() -> int {
        if (p.isSet("trace"))
            if (auto rc = refuseOutput(p.value("trace"), commonInputs(p))) return *rc;
        Common c;
        if (auto rc = readCommon(p, c)) return *rc;
        mapping::Policy policy;
        std::string error;
        if (!mapping::Policy::parse(p.value("policy").toStdString(), policy, error))
            return p.usageError(error);
        bool ok = false;
        const uint copies = p.value("copies").toUInt(&ok);
        if (!ok || copies == 0 || copies > 100000)
            return p.usageError("--copies must be a whole number from 1 to 100000");
        const sim::SimConfig cfg = c.settings.config(*c.topo, policy, copies);
        sim::Simulator::checkConfig(cfg);  // before --trace creates its file
        const std::unique_ptr<sim::RunCache> cache = CacheOption::open(p);
        const sim::SimResult r = p.isSet("trace")
                                     ? *trace::recordRun(cfg, p.value("trace").toStdString())
                                 : cache ? cache->run(cfg)
                                         : sim::Simulator(cfg).run();
        if (p.isSet("json")) {
            std::cout << r.toJson(true);
        } else {
            printText(r, 6);
        }
        return 0;
    });
}

// `immap sweep merge PART... -o OUT`: the parts of a sharded sweep joined into the CSV (OUT
// ending in .csv) or the JSON (.json) one run of the whole grid writes.
static int sweepMerge(const QStringList& args) {
    CliCommand p("sweep merge",
                 "Join the parts of a sharded sweep (immap sweep --shard K/N --part FILE) into "
                 "exactly the file one run writes: CSV for OUT ending in .csv, the JSON of "
                 "--json for .json.");
    p.addOption({{"o", "output"}, "The merged file (written atomically).", "OUT"});
    p.addPositionals("PART", "The N parts of one sweep, in any order.");
    if (auto rc = p.parse(args)) return *rc;
    const QStringList partPaths = p.positionalArguments();
    if (!p.isSet("output")) return p.usageError("-o OUT is required");
    const QString out = p.value("output");
    const bool csv = out.endsWith(".csv"), json = out.endsWith(".json");
    if (!csv && !json) return p.usageError("-o: OUT must end in .csv or .json");
    return reportingBadInput([&]() -> int {
        std::vector<std::string> inputs;
        for (const QString& path : partPaths)
            inputs.push_back(path.toStdString());
        if (auto rc = refuseOutput(out, inputs)) return *rc;
        std::vector<sim::SweepPart> parts;
        for (const std::string& path : inputs)
            parts.push_back({path, io::InputFile::read<io::InputError>(path, std::uint64_t{1} << 30,
                                                                       "a sweep part")});
        std::vector<sim::SweepRow> rows;
        std::string error;
        if (!sim::SweepShard::merge(parts, rows, error)) {
            std::cerr << "immap sweep merge: " << error << '\n';
            return kBadInput;
        }
        const std::string text = csv ? sim::SweepRow::toCsv(rows) : sim::SweepRow::toJson(rows);
        if (!CliOutput::writeAtomically(out, text, error)) {
            std::cerr << "immap sweep merge: cannot write " << error << '\n';
            return 1;
        }
        return 0;
    });
}

int sweepCommand(const QStringList& args) {
    if (args.size() > 1 && args[1] == "merge") return sweepMerge(args.mid(1));
    CliCommand p("sweep",
                 "Simulate a grid of policies x copy counts (every core), without and with "
                 "whole-file walkers.");
    addCommonOptions(p);
    p.addOption({"policies", "Comma-separated policies.", "LIST",
                 QString::fromStdString(session::SimSettings{}.policiesText())});
    p.addOption({"copies",
                 "Comma-separated copy counts (default: 1, 2, 4, ... up to the PU count, and the "
                 "PU count).",
                 "LIST"});
    p.addOption({"threads", "Worker threads (default: every core).", "T",
                 QString::number(sim::ParallelRuns::defaultThreads())});
    p.addOption({"seeds",
                 "Seeds per point (--seed, --seed + 1, ...): execs/s is their mean, the spread "
                 "their range.",
                 "N", QString::number(session::SimSettings{}.seeds)});
    p.addOption({"bands",
                 "Also run each point under N parameter sets drawn over the plausible ranges "
                 "(seeded Latin hypercube; parameters given with --param stay fixed) and print "
                 "the 10-90% band of every rate and ratio, and which parameters move the ratios "
                 "most (Spearman's rho; docs/simulator.md, \"Bands\"). That table needs N of "
                 "at least 10: over N unrelated sets chance alone gives |rho| above "
                 "1.96/sqrt(N-1) one time in 20 (0.65 at 10, 0.41 at 24; at 4 sets even a "
                 "perfect ordering comes by chance one time in 12).",
                 "N", "0"});
    p.addOption({"no-side-by-side",
                 "Run only at --walkers' rate, not also without walkers (a scenario's "
                 "\"walkersSideBySide\": false does the same)."});
    p.addOption({"json", "Print {\"runs\": [...]} as JSON."});
    p.addOption({"csv", "Write the runs as CSV to FILE (atomically).", "FILE"});
    p.addOption({"png", "Render the throughput plot (as the app shows it) to FILE.", "FILE"});
    p.addOption({"size", "PNG size.", "WxH", "1200x800"});
    p.addOption({"bake",
                 "With --scenario: write every run of this sweep into the scenario's \"results\" "
                 "(atomically, replacing what it carried), so that opening it in immap-lab shows "
                 "its throughput slides at once. Give no option that changes the sweep, or the "
                 "runs baked are not the ones the window asks for (docs/cache.md)."});
    p.addOption({"shard",
                 "Run only shard K of N of the grid and write its part to --part FILE; 'immap "
                 "sweep merge' joins the N parts (docs/sharding.md).",
                 "K/N"});
    p.addOption({"part", "With --shard: the part file to write (atomically).", "FILE"});
    if (auto rc = parseCommandLine(p, args)) return *rc;
    return reportingBadInput([&]() -> int {
        unsigned shard = 0, shards = 0;
        if (p.isSet("shard") || p.isSet("part")) {
            std::string why;
            if (!p.isSet("shard") || !p.isSet("part"))
                return p.usageError("--shard K/N and --part FILE go together");
            if (!sim::SweepShard::parse(p.value("shard").toStdString(), shard, shards, why))
                return p.usageError("--shard " + why);
            for (const char* o : {"json", "csv", "png"})
                if (p.isSet(o))
                    return p.usageError(std::string("--") + o +
                                        " needs every point: give it to 'immap sweep merge'");
        }
        std::vector<std::pair<QString, QString>> outs;
        for (const char* o : {"csv", "png", "part"})
            if (p.isSet(o)) outs.emplace_back(QString("--") + o, p.value(o));
        if (auto rc = refuseOutputs(outs, commonInputs(p))) return *rc;
        Common c;
        if (auto rc = readCommon(p, c)) return *rc;
        std::string error;
        session::SimSettings& s = c.settings;
        if (p.isSet("policies") &&
            !sim::Sweep::parsePolicies(p.value("policies").toStdString(), s.policies, error))
            return p.usageError("--policies: " + error);
        if (p.isSet("copies") &&
            !sim::Sweep::parseCopies(p.value("copies").toStdString(), s.copies, error))
            return p.usageError("--copies: " + error);
        bool ok = false;
        const unsigned threads = p.value("threads").toUInt(&ok);
        if (!ok || threads == 0 || threads > 256)
            return p.usageError("--threads must be from 1 to 256");
        if (p.isSet("seeds")) {
            s.seeds = p.value("seeds").toUInt(&ok);
            if (!ok || s.seeds == 0 || s.seeds > 1000)
                return p.usageError("--seeds must be from 1 to 1000");
        }
        if (p.isSet("bands")) {
            s.bands = p.value("bands").toUInt(&ok);
            if (!ok || s.bands > 1000) return p.usageError("--bands must be from 0 to 1000");
        }
        if (p.isSet("no-side-by-side")) s.walkersSideBySide = false;
        sim::SweepConfig cfg = s.sweep(*c.topo, threads);
        if (shards > 0) cfg.points = sim::SweepShard::points(cfg, shard, shards);
        sim::Sweep::check(cfg);  // every run of the grid, before the first starts
        std::unique_ptr<sim::RunCache> cache = CacheOption::open(p);
        const bool bake = p.isSet("bake");
        if (bake && !p.isSet("scenario")) return p.usageError("--bake needs --scenario FILE");
        if (bake && !cache) cache = std::make_unique<sim::RunCache>(std::string());  // memory
        cfg.cache = cache.get();
        // A shard beyond the grid's points runs none and still writes its part, so that the
        // merge finds all N.
        const std::vector<sim::SimResult> runs = sim::Sweep::run(cfg);
        if (bake) {
            const std::string path = p.value("scenario").toStdString();
            session::Scenario scenario = session::Scenario::load(path);
            // What the window will ask for, read back from the cache the sweep just filled.
            scenario.results = session::ScenarioResults::known(cfg, *cache);
            const std::size_t all = sim::Sweep::runs(cfg).size();
            if (scenario.results.size() != all) {
                std::cerr << "immap sweep: " << path << ": not baked: the run cache kept "
                          << scenario.results.size() << " of the sweep's " << all
                          << " runs (raise IMMAP_CACHE_MAX_MB, or add --no-cache)\n";
                return 2;
            }
            scenario.save(path);
            std::cerr << "immap sweep: " << scenario.results.size() << " runs baked into " << path
                      << '\n';
        }
        if (shards > 0) {
            const std::string text = sim::SweepShard::part(
                sim::SweepShard::identity(cfg, s.recipePath.empty() ? s.recipeJson : s.recipePath),
                shard, shards, *cfg.points, sim::Sweep::rows(runs));
            std::string error;
            if (!CliOutput::writeAtomically(p.value("part"), text, error)) {
                std::cerr << "immap sweep: cannot write " << error << '\n';
                return 1;
            }
            return 0;
        }
        if (p.isSet("csv")) {
            std::string error;
            if (!CliOutput::writeAtomically(p.value("csv"), sim::Sweep::toCsv(runs), error)) {
                std::cerr << "immap sweep: cannot write " << error << '\n';
                return 1;
            }
        }
        if (p.isSet("png")) {
            const QStringList wh = p.value("size").split('x');
            const int w = wh.size() == 2 ? wh[0].toInt() : 0,
                      h = wh.size() == 2 ? wh[1].toInt() : 0;
            if (w < 100 || h < 100 || w > 10000 || h > 10000)
                return p.usageError("--size must be WxH, each from 100 to 10000");
            views::ThroughputView view;
            view.resize(w, h);
            view.setRuns(runs, views::ThroughputView::machineName(*c.topo),
                         static_cast<int>(c.topo->pus().size()));
            QString error;
            if (!view.exportPng(p.value("png"), w, h, error)) {
                std::cerr << "immap sweep: cannot write " << error.toStdString() << '\n';
                return 1;
            }
        }
        if (p.isSet("json")) {
            std::cout << sim::Sweep::toJson(runs);
        } else if (!p.isSet("csv") && !p.isSet("png")) {
            std::cout << SweepReport::table(runs)
                      << SweepReport::bands(runs, cfg.run.params, cfg.bands, cfg.run.seed);
        }
        return 0;
    });
}

}  // namespace immap::cli
