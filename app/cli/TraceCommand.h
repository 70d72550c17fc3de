#pragma once
// `immap trace import|stats|replay|export`: native traces and real recordings.
#include <QStringList>

namespace immap::cli {

int traceImport(const QStringList& args);  // args[0] is the subcommand's word
int traceStats(const QStringList& args);
int traceReplay(const QStringList& args);
int traceExport(const QStringList& args);

}  // namespace immap::cli
