#pragma once
// `immap topology show SPEC [--json|--dot|--xml]`. Exit status: 0 ok, 2 bad input or usage.
#include <QStringList>

namespace immap::cli {

int topologyShow(const QStringList& args);  // args[0] is "show"

}  // namespace immap::cli
