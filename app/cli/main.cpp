#include <QApplication>
#include <QCoreApplication>
#include <cstring>
#include <iostream>
#include <memory>

#include "CommandTable.h"
#include "TreeCommand.h"
#include "limits/UserReason.h"
#include "topology/TopologyXml.h"

namespace {

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
    if (cmd == "--help" || cmd == "-h") {
        std::cout << immap::cli::CommandTable::usage();
        return 0;
    }
    if (cmd == "--version") {
        std::cout << "immap " << IMMAP_VERSION << '\n'
                  << "hwloc XML importer: " << immap::topology::hwlocXmlImporter()
                  << " (libxml2 unless libhwloc-plugins is missing or HWLOC_LIBXML_IMPORT=0)\n";
        return 0;
    }
    return immap::cli::CommandTable::dispatch(args);
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
