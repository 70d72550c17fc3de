#pragma once
// `immap snapshot stats SOURCE [--topology SPEC] [--json]`. Exit status: 0 ok, 2 bad input.
#include <QStringList>

namespace immap::cli {

int snapshotStats(const QStringList& args);  // args[0] is "stats"

}  // namespace immap::cli
