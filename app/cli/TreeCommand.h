#pragma once
// `immap tree run|libc|dot` and the default summary. Exit status: 0 ok, 2 bad input or usage.
#include <QStringList>

namespace immap::cli {

int treeRun(const QStringList& args);  // args[0] is "run"; so for every command (CommandTable)
int treeLibc(const QStringList& args);
int treeDot(const QStringList& args);
int defaultSummary();

}  // namespace immap::cli
