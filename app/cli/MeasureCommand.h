#pragma once
// `immap bench execl|tree-locks` (real measurements on this host) and `immap calibrate` (the
// model fitted to them). See docs/measurements.md.
#include <QStringList>

namespace immap::cli {

int benchExecl(const QStringList& args);  // args[0] is "execl"
int benchTreeLocks(const QStringList& args);
int calibrateCommand(const QStringList& args);

}  // namespace immap::cli
