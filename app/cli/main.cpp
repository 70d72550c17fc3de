#include <QCoreApplication>
#include <iostream>

#include "TreeCommand.h"

namespace {

const char* kUsage =
    "usage: immap                         summary of the built-in default scenario\n"
    "       immap tree run [--bench] SCRIPT|-   run an op script (see README)\n"
    "       immap tree libc [--processes P] [--cycles C] [--seed S]\n"
    "                                     print a libc-shaped exec/exit op script\n"
    "       immap --help | --version\n";

}  // namespace

int main(int argc, char** argv) {
    std::ios::sync_with_stdio(false);
    QCoreApplication app(argc, argv);
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
        std::cout << "immap " << IMMAP_VERSION << '\n';
        return 0;
    }
    if (cmd == "tree") return immap::cli::treeCommand(args);
    std::cerr << "immap: unknown command '" << cmd.toStdString() << "'\n" << kUsage;
    return 2;
}
