#include "CommandTable.h"

#include <iostream>

#include "CliCommand.h"
#include "InputErrors.h"
#include "MeasureCommand.h"
#include "SimCommand.h"
#include "SnapshotCommand.h"
#include "TopologyCommand.h"
#include "TraceCommand.h"
#include "TreeCommand.h"
#include "ValidateCommand.h"

namespace immap::cli {

namespace {

const QString kHelpPath = QStringLiteral("help");

// The commands whose path starts with group (a first word shared by several).
std::vector<const CommandTable::Command*> members(const QString& group) {
    std::vector<const CommandTable::Command*> out;
    for (const CommandTable::Command& c : CommandTable::commands())
        if (QString(c.path).startsWith(group + ' ')) out.push_back(&c);
    return out;
}

std::string groupUsage(const QString& group) {
    const std::string g = group.toStdString();
    std::string out = "Usage: immap " + g + " COMMAND [options] ...\n\nCommands:\n";
    for (const CommandTable::Command* c : members(group))
        out += CliCommand::helpEntry(std::string("immap ") + c->path, c->summary);
    return out + "\n'immap " + g + " COMMAND --help' shows a command's options and arguments.\n";
}

int groupError(const QString& group, const std::string& message) {
    const std::string g = group.toStdString();
    std::cerr << "immap " << g << ": " << message << "\n(see 'immap " << g << " --help')\n";
    return kBadInput;
}

int runGroup(const QString& group, const QStringList& args) {
    const auto cmds = members(group);
    QStringList names;
    for (const CommandTable::Command* c : cmds)
        names << QString(c->path).section(' ', 1);
    if (args.size() < 2)
        return groupError(group, "expected a command: " + names.join(", ").toStdString());
    const QString sub = args[1];
    if (sub == "--help" || sub == "-h") {
        std::cout << groupUsage(group);
        return 0;
    }
    for (const CommandTable::Command* c : cmds)
        if (QString(c->path) == group + ' ' + sub) return c->run(args.mid(1));
    if (sub.startsWith('-')) return groupError(group, "Unknown option '" + sub.toStdString() + "'");
    return groupError(group, "unknown " + group.toStdString() + " command '" + sub.toStdString() +
                                 "' (" + names.join(", ").toStdString() + ")");
}

// `immap help [--list | COMMAND...]`.
int help(const QStringList& args) {
    if (args.size() == 1 || args[1] == "--help" || args[1] == "-h") {
        std::cout << CommandTable::usage();
        return 0;
    }
    if (args[1] == "--list" && args.size() == 2) {
        std::cout << CommandTable::list();
        return 0;
    }
    if (args[1].startsWith('-')) {
        std::cerr << "immap help: Unknown option '" << args[1].toStdString()
                  << "'\n(see 'immap --help')\n";
        return kBadInput;
    }
    return CommandTable::dispatch(args.mid(1) << "--help");
}

}  // namespace

const std::vector<CommandTable::Command>& CommandTable::commands() {
    static const std::vector<Command> table = {
        {"tree run", "Run an op script on the kernel-faithful interval tree.", treeRun},
        {"tree libc", "Print a libc-shaped exec/exit op script.", treeLibc},
        {"tree dot", "GraphViz DOT of a mapped file's i_mmap tree(s).", treeDot},
        {"snapshot stats", "Which VMAs sit in which file's i_mmap, per NUMA node.", snapshotStats},
        {"topology show", "A machine topology: host, xml:FILE or synthetic:DESC.", topologyShow},
        {"simulate", "N execl copies contending on the i_mmap locks (the model).", simulateCommand},
        {"sweep", "The model's throughput for every policy x copy count, with and without walkers.",
         sweepCommand},
        {"sweep merge", "Join a sharded sweep's parts into the file one run writes.", sweepCommand},
        {"validate", "The model against every published measurement: the scorecard.",
         validateCommand},
        {"trace import", "bpftrace output of record-mappings.bt to a native trace.", traceImport},
        {"trace stats", "A trace's events, execs, per-file inserts, removes and lock holds.",
         traceStats},
        {"trace replay", "Rebuild the trees from a trace, with the run's statistics.", traceReplay},
        {"trace export", "A trace as Perfetto trace-event JSON or lock statistics CSV.",
         traceExport},
        {"bench execl", "Real execl copies on this host (docs/measurements.md).", benchExecl},
        {"bench tree-locks", "The recipe's tree ops by pinned threads under real locks.",
         benchTreeLocks},
        {"calibrate", "Fit the model to measured execl points.", calibrateCommand},
    };
    return table;
}

int CommandTable::dispatch(const QStringList& args) {
    const QString& first = args.first();
    if (first == kHelpPath) return help(args);
    for (const Command& c : commands())
        if (QString(c.path) == first) return c.run(args);
    if (!members(first).empty()) return runGroup(first, args);
    std::cerr << "immap: unknown command '" << first.toStdString() << "'\n(see 'immap --help')\n";
    return kBadInput;
}

std::string CommandTable::usage() {
    std::string out =
        "Usage: immap [COMMAND] [options] [ARGUMENTS]\n"
        "       immap help [--list | COMMAND]\n"
        "The Linux kernel's i_mmap interval tree, rebuilt case for case, from the command line.\n"
        "With no COMMAND: a summary of the built-in default scenario.\n\nCommands:\n";
    for (const Command& c : commands())
        out += CliCommand::helpEntry(c.path, c.summary);
    out += CliCommand::helpEntry(
        "help [COMMAND]", "This text, or COMMAND's usage; help --list prints every command.");
    out += "\nOptions:\n";
    out += CliCommand::helpEntry("-h, --help", "Show this usage and exit.");
    out += CliCommand::helpEntry("--version", "Show the version and the hwloc XML importer.");
    return out + "\n'immap COMMAND --help' shows a command's options and arguments.\n";
}

std::string CommandTable::list() {
    std::string out;
    QStringList groups;
    for (const Command& c : commands()) {
        const QString group = QString(c.path).section(' ', 0, 0);
        if (group != c.path && !groups.contains(group)) {
            groups << group;
            out += group.toStdString() + '\n';
        }
        out += std::string(c.path) + '\n';
    }
    return out + kHelpPath.toStdString() + '\n';
}

}  // namespace immap::cli
