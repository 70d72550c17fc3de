#pragma once
// Every command of `immap`, by path ("tree run"), in one table: the dispatcher, `immap --help`,
// the groups' --help ("immap tree --help") and `immap help --list` all read it, so a command
// added here is reachable, listed and walked by the help tests at once.
#include <QStringList>
#include <string>
#include <vector>

namespace immap::cli {

class CommandTable {
public:
    struct Command {
        const char* path;     // the words after "immap"
        const char* summary;  // one line for the listings; the command's --help says the rest
        int (*run)(const QStringList& args);  // args[0] is the path's last word
    };
    static const std::vector<Command>& commands();

    // Runs the command `args` (the command line after "immap", not empty) names; answers help,
    // --help of a group, and unknown commands (exit status 2).
    static int dispatch(const QStringList& args);

    // `immap --help`.
    static std::string usage();
    // `immap help --list`: every path that answers --help, groups and "help" included.
    static std::string list();
};

}  // namespace immap::cli
