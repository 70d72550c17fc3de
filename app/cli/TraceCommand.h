#pragma once
// `immap trace import|stats|replay|export`: native traces and real recordings.

#include <QStringList>

namespace immap::cli {

int traceCommand(const QStringList& args);

}  // namespace immap::cli
