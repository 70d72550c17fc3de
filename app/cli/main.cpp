#include <QApplication>
#include <QCoreApplication>
#include <cstring>
#include <iostream>
#include <memory>

#include "MeasureCommand.h"
#include "SimCommand.h"
#include "SnapshotCommand.h"
#include "TopologyCommand.h"
#include "TraceCommand.h"
#include "TreeCommand.h"
#include "limits/UserReason.h"
#include "topology/TopologyXml.h"

namespace {

const char* kUsage =
    "usage: immap                         summary of the built-in default scenario\n"
    "       immap tree run [--bench] SCRIPT|-   run an op script (see README)\n"
    "       immap tree libc [--processes P] [--cycles C] [--seed S]\n"
    "                                     print a libc-shaped exec/exit op script\n"
    "       immap tree dot SOURCE --file NAME [--policy P] [--topology SPEC]\n"
    "                                     GraphViz DOT of a file's i_mmap tree(s)\n"
    "       immap snapshot stats SOURCE [--topology SPEC] [--json]\n"
    "                                     which VMAs sit in which file's i_mmap, per node\n"
    "       immap topology show SPEC [--json|--dot|--xml]\n"
    "                                     a machine topology: host, xml:FILE, synthetic:DESC\n"
    "       immap simulate [--topology SPEC] [--policy P] [--copies N] [--duration-ms D]\n"
    "                      [--seed S] [--recipe FILE] [--walkers PER_S] [--param NAME=VALUE]... "
    "[--json]\n"
    "                                     N execl copies contending on the i_mmap locks\n"
    "       immap sweep [--topology SPEC] [--policies LIST] [--copies LIST] [--json | --csv FILE]\n"
    "                   [--png FILE [--size WxH]]\n"
    "                                     throughput of every policy x copy count\n"
    "       immap simulate --list-params      the cost model's parameters and their sources\n"
    "       immap simulate ... --trace FILE   record the run as a native trace\n"
    "       immap trace import|stats|replay|export ...   traces (immap trace --help)\n"
    "       immap bench execl [--copies LIST] [--seconds S] [--repeat R] [--json]\n"
    "                                     real execl copies on this host (docs/measurements.md)\n"
    "       immap bench tree-locks [--threads LIST] [--policy single|split-locks] [--json]\n"
    "                                     the recipe's tree ops by pinned threads, real locks\n"
    "       immap calibrate --measured FILE [--topology SPEC] [--output FIT] [--json]\n"
    "                                     fit the model to measured execl points\n"
    "       immap simulate|sweep ... --fit FIT   run the model with a fit's parameters\n"
    "       immap --help | --version\n";

int run(int argc, char** argv) {
    // `sweep --png` renders the throughput view: widgets need a QApplication, and headless
    // machines need Qt's offscreen platform. Everything else stays a plain core application.
    bool png = false;
    for (int i = 1; i < argc; ++i)
        png = png || !std::strcmp(argv[i], "--png");
    if (png && qEnvironmentVariableIsEmpty("DISPLAY") &&
        qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY") &&
        qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    std::unique_ptr<QCoreApplication> application =
        png ? std::make_unique<QApplication>(argc, argv)
            : std::make_unique<QCoreApplication>(argc, argv);
    QCoreApplication& app = *application;
    QCoreApplication::setApplicationName("immap");
    QCoreApplication::setApplicationVersion(IMMAP_VERSION);
    const QStringList args = app.arguments().mid(1);
    if (args.isEmpty()) return immap::cli::defaultSummary();
    const QString& cmd = args.first();
    if (cmd == "--help" || cmd == "-h" || cmd == "help") {
        std::cout << kUsage;
        return 0;
    }
    if (cmd == "--version") {
        std::cout << "immap " << IMMAP_VERSION << '\n'
                  << "hwloc XML importer: " << immap::topology::hwlocXmlImporter()
                  << " (libxml2 unless libhwloc-plugins is missing or HWLOC_LIBXML_IMPORT=0)\n";
        return 0;
    }
    if (cmd == "tree") return immap::cli::treeCommand(args);
    if (cmd == "snapshot") return immap::cli::snapshotCommand(args);
    if (cmd == "topology") return immap::cli::topologyCommand(args);
    if (cmd == "simulate") return immap::cli::simulateCommand(args);
    if (cmd == "sweep") return immap::cli::sweepCommand(args);
    if (cmd == "trace") return immap::cli::traceCommand(args);
    if (cmd == "bench") return immap::cli::benchCommand(args);
    if (cmd == "calibrate") return immap::cli::calibrateCommand(args);
    std::cerr << "immap: unknown command '" << cmd.toStdString() << "'\n" << kUsage;
    return 2;
}

}  // namespace

// Whatever escapes a command (an allocation that failed, an internal check) ends here as one
// plain sentence and exit status 2: an uncaught exception would abort with its C++ name.
int main(int argc, char** argv) {
    std::ios::sync_with_stdio(false);
    std::string doing = "immap";
    for (int i = 1; i < argc && i < 3 && argv[i][0] != '-'; ++i)
        doing += std::string(" ") + argv[i];
    try {
        return run(argc, argv);
    } catch (...) {
        std::cout.flush();
        std::cerr << "immap: " << immap::limits::UserReason::of(std::current_exception(), doing)
                  << '\n';
        return 2;
    }
}
