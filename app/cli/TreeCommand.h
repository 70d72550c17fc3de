#pragma once
// `immap tree ...` and the default summary. Exit status: 0 ok, 2 bad input or usage.

#include <QStringList>

namespace immap::cli {

int treeCommand(const QStringList& args);  // args[0] is "tree"
int defaultSummary();

}  // namespace immap::cli
