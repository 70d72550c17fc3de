#pragma once
// `immap validate`: the model against the published measurements (sim::Scorecard).

#include <QStringList>

namespace immap::cli {

int validateCommand(const QStringList& args);

}  // namespace immap::cli
