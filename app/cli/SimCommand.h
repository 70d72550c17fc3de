#pragma once
// `immap simulate` and `immap sweep`: the contention simulator from the command line.

#include <QStringList>

namespace immap::cli {

int simulateCommand(const QStringList& args);
int sweepCommand(const QStringList& args);

}  // namespace immap::cli
