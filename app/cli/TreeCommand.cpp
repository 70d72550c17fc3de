#include "TreeCommand.h"

#include "CliCommand.h"
#include "InputErrors.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <algorithm>
#include <iostream>
#include <sstream>

#include "io/InputFile.h"
#include "itree/IntervalTree.h"
#include "itree/InvariantChecker.h"
#include "itree/LibcChurn.h"
#include "itree/ScriptRunner.h"
#include "itree/TreeBench.h"
#include "limits/InputLimits.h"
#include "limits/MemoryBudget.h"
#include "mapping/FileMapping.h"
#include "mapping/HostLoader.h"
#include "mapping/TreeDot.h"
#include "session/DefaultScenario.h"

namespace immap::cli {

using namespace immap::itree;

namespace {

// Op scripts are read whole; a million-op script is about 20 MiB.
constexpr std::uint64_t kMaxScriptBytes = std::uint64_t{256} << 20;

// Reads SCRIPT ("-" is stdin) whole; on failure says why, naming the file.
bool readScript(const std::string& path, std::string& text) {
    if (path == "-") {
        // A pipe is what "-" is for, but it gets the same cap as a file.
        text.clear();
        char buf[1 << 16];
        while (std::cin.read(buf, sizeof buf) || std::cin.gcount() > 0) {
            if (text.size() + static_cast<std::uint64_t>(std::cin.gcount()) > kMaxScriptBytes) {
                std::cerr << "-: " << io::InputFile::capMessage(kMaxScriptBytes, "an op script")
                          << '\n';
                return false;
            }
            text.append(buf, static_cast<std::size_t>(std::cin.gcount()));
        }
        return true;
    }
    io::InputFile f(path, kMaxScriptBytes, "an op script");
    if (!f.ok() || !f.readAll(text)) {
        std::cerr << path << ": " << f.reason() << '\n';
        return false;
    }
    return true;
}

QJsonObject figures(const BenchFigures& f) {
    return {{"ns_per_insert", f.nsPerInsert},
            {"ns_per_remove", f.nsPerRemove},
            {"ns_per_op", f.nsPerOp}};
}

int benchScript(const std::string& name, const std::string& text) {
    // Validate with the runner first so that errors name the line, then collect the ops.
    {
        std::istringstream in(text);
        std::ostream discard(nullptr);
        ScriptRunner check(discard);
        if (!check.run(in, name, std::cerr)) return kBadInput;
        printWarnings(check.warnings());
    }
    std::vector<ScriptOp> ops;
    std::istringstream in(text);
    std::string line, error;
    ScriptOp op;
    while (std::getline(in, line))
        if (OpScript::parseLine(line, op, error) && op.kind != ScriptOp::Kind::None)
            ops.push_back(op);
    BenchResult r;
    if (!TreeBench::run(ops, BenchOptions{}, r, error)) {
        std::cerr << name << ": " << error << '\n';
        return kBadInput;
    }
    QJsonObject out{
        {"script", QString::fromStdString(name)},
        {"inserts", static_cast<qint64>(r.inserts)},
        {"removes", static_cast<qint64>(r.removes)},
        {"repetitions", static_cast<qint64>(r.repetitions)},
        {"itree", figures(r.itree)},
        {"multimap", figures(r.multimap)},
        {"ratio", r.ratio},
        {"ratio_insert",
         r.multimap.nsPerInsert > 0 ? r.itree.nsPerInsert / r.multimap.nsPerInsert : 0},
        {"ratio_remove",
         r.multimap.nsPerRemove > 0 ? r.itree.nsPerRemove / r.multimap.nsPerRemove : 0},
        {"linkage_bytes_per_node", static_cast<qint64>(r.linkageBytes)},
    };
    std::cout << QJsonDocument(out).toJson(QJsonDocument::Indented).toStdString();
    return 0;
}

}  // namespace

int treeRun(const QStringList& args) {
    CliCommand p("tree run", "Run an op script on the kernel-faithful interval tree.");
    p.addOption(
        {"bench", "Time the script's inserts and removes against std::multimap; print JSON."});
    p.addPositional("SCRIPT", "Op script file, or - for standard input.");
    if (auto rc = p.parse(args)) return *rc;
    const std::string name = p.positionalArguments().first().toStdString();
    std::string text;
    if (!readScript(name, text)) return kBadInput;
    if (p.isSet("bench")) return benchScript(name, text);
    std::istringstream in(text);
    ScriptRunner runner(std::cout);
    const bool ok = runner.run(in, name, std::cerr);
    std::cout.flush();
    if (ok) printWarnings(runner.warnings());
    return ok ? 0 : kBadInput;
}

namespace {

bool count(const CliCommand& p, const QString& opt, std::uint64_t& v) {
    if (!p.isSet(opt)) return true;
    std::string error;
    return OpScript::parseNumber(p.value(opt).toStdString(), v, error);
}

int printLibc(std::uint64_t processes, std::uint64_t cycles, std::uint64_t seed);

}  // namespace

int treeLibc(const QStringList& args) {
    CliCommand p("tree libc",
                 "Print a libc-shaped op script: processes map libc, then exit and "
                 "exec in turn (pipe it to 'immap tree run').");
    p.addOption({"processes", "Processes mapping libc first.", "P", "1200"});
    p.addOption({"cycles", "Exit+exec cycles after that.", "C", "0"});
    p.addOption({"seed", "Seed for which process exits.", "S", "1"});
    if (auto rc = p.parse(args)) return *rc;
    std::uint64_t processes = 1200, cycles = 0, seed = 1;
    if (!count(p, "processes", processes) || !count(p, "cycles", cycles) || !count(p, "seed", seed))
        return p.usageError("--processes, --cycles and --seed take a number");
    std::string error;
    if (!limits::InputLimits::check("processes", static_cast<double>(processes), error,
                                    "--processes") ||
        !limits::InputLimits::check("cycles", static_cast<double>(cycles), error, "--cycles"))
        return p.usageError(error);
    // The ops are generated whole, then printed from one string: 5 ops per process and 10 per
    // cycle at 32 bytes each, plus their text. Measured peak: 242 bytes per process and 521 per
    // cycle; the estimate allows 400 and 640.
    const double bytes = static_cast<double>(processes) * 5 * (32 + 2 * 24) +
                         static_cast<double>(cycles) * 10 * (32 + 2 * 16);
    return reportingBadInput([&] {
        limits::MemoryBudget::require(
            limits::MemoryBudget::count(static_cast<double>(processes)) + " processes and " +
                limits::MemoryBudget::count(static_cast<double>(cycles)) + " cycles",
            bytes);
        return printLibc(processes, cycles, seed);
    });
}

namespace {

int printLibc(std::uint64_t processes, std::uint64_t cycles, std::uint64_t seed) {
    std::string out = "# immap tree libc --processes " + std::to_string(processes) + " --cycles " +
                      std::to_string(cycles) + " --seed " + std::to_string(seed) + "\n";
    for (const ScriptOp& op : LibcChurn::generate(processes, cycles, seed)) {
        if (op.kind == ScriptOp::Kind::Insert)
            out += "i " + std::to_string(op.id) + ' ' + std::to_string(op.start) + ' ' +
                   std::to_string(op.last) + '\n';
        else
            out += "r " + std::to_string(op.id) + '\n';
    }
    std::cout << out;
    return 0;
}

}  // namespace

int treeDot(const QStringList& args) {
    CliCommand p("tree dot", "GraphViz DOT of a mapped file's i_mmap tree, or its per-node trees.");
    p.addOption({"file", "The mapped file: full path or last component (libc.so.6).", "NAME"});
    p.addOption({"policy", "single (default), split-trees, split-locks or sharded:K.", "POLICY"});
    p.addOption(
        {"topology", "Topology spec: host, xml:FILE, synthetic:DESC[;distances=...].", "SPEC"});
    p.addPositional("SOURCE", "maps:FILE, snapshot:DIR|ARCHIVE, live, synthetic:libc?...");
    if (auto rc = p.parse(args)) return *rc;
    if (!p.isSet("file")) return p.usageError("needs --file NAME");
    mapping::Policy policy;
    std::string error;
    if (p.isSet("policy") &&
        !mapping::Policy::parse(p.value("policy").toStdString(), policy, error))
        return p.usageError(error);
    if (policy.kind == mapping::Policy::Kind::NoRmap)
        return p.usageError(
            "no-rmap keeps the marked files in no i_mmap tree, so there is no tree to show "
            "(it is a simulator policy: immap simulate --policy no-rmap)");
    return reportingBadInput([&] {
        const mapping::LoadedHost host = mapping::HostLoader::load(
            p.positionalArguments().first().toStdString(), p.value("topology").toStdString());
        printWarnings(host.snapshot.warnings);
        const std::string name = p.value("file").toStdString();
        const mapping::MappedFile* file = host.mappings.findFile(name);
        if (!file) {
            std::cerr << host.source << ": no single mapped file named '" << name << "'\n";
            return kBadInput;
        }
        const mapping::FileMapping m(*file, *host.topology, policy);
        std::cout << mapping::TreeDot::write(m);
        return 0;
    });
}

int defaultSummary() {
    // The GUI's default too (one definition for both): 1,200 execl-like processes on the
    // proposal's 12-node shape.
    constexpr const char* kSource = session::kDefaultSource;
    constexpr const char* kTopology = session::kDefaultTopology;
    return reportingBadInput([&] {
        const mapping::LoadedHost host = mapping::HostLoader::load(kSource, kTopology);
        const mapping::MappedFile& libc = *host.mappings.findFile("libc.so.6");
        const mapping::FileMapping single(libc, *host.topology, mapping::Policy{});
        const mapping::FileMapping split(libc, *host.topology,
                                         mapping::Policy{mapping::Policy::Kind::SplitTrees, 0});
        const IntervalTree& t = single.tree(0);
        const CheckResult check = InvariantChecker::check(t);
        const Index page = 0x100;  // inside libc's r-xp text segment
        std::size_t hits = 0;
        for (Node* n = t.iterFirst(page, page); n; n = IntervalTree::iterNext(n, page, page))
            ++hits;
        int lo = 1 << 30, hi = 0;
        for (std::size_t i = 0; i < split.treeCount(); ++i) {
            lo = std::min(lo, split.stats(i).height);
            hi = std::max(hi, split.stats(i).height);
        }
        const mapping::Policy locks{mapping::Policy::Kind::SplitLocks, 0};
        std::cout
            << "immap " << IMMAP_VERSION
            << ": the Linux kernel's i_mmap interval tree, rebuilt case for case.\n\n"
            << "Default scenario: libc.so.6 mapped by " << host.mappings.processes().size()
            << " processes, five VMAs each (r--p, r-xp, r--p, RELRO r--p, rw-p),\n"
            << "spread over an assumed 12-node, 384-CPU machine shaped like the proposal's.\n"
            << "  single i_mmap tree: " << t.size() << " VMAs, height " << check.shape.height
            << ", black height " << check.shape.blackHeight << ", invariants "
            << (check.ok ? "hold" : "BROKEN: " + check.error) << '\n'
            << "  per-node trees: " << split.treeCount() << " trees of " << split.tree(0).size()
            << " VMAs, height " << lo << (lo == hi ? "" : ".." + std::to_string(hi))
            << "; per inode +" << split.memoryPerInodeBytes() << " B (v1, one lock), +"
            << locks.memoryPerInodeBytes(split.treeCount()) << " B (v2, a lock per tree)\n"
            << "  linkage per VMA: " << kLinkageBytes
            << " bytes (parent+colour, two children, subtree_last), as in the kernel\n"
            << "  rmap walk of page 0x100 (libc text): " << hits << " VMAs map it\n\n"
            << "Try: immap snapshot stats snapshot:samples/snapshots/host250\n"
            << "     immap tree run samples/scripts/libc-small.ops\n"
            << "     immap tree libc --processes 1200 --cycles 20000 | immap tree run --bench -\n";
        return check.ok ? 0 : 1;
    });
}

}  // namespace immap::cli
