#pragma once
// What a path or argument means as a source: a spec as given (maps:, snapshot:, live,
// synthetic:, trace:), a directory or .tar[.gz] as a snapshot, an .xml as a topology, any other
// file as one maps file.

#include <QString>

namespace immap::gui {

struct SourceArg {
    enum class Kind { Source, Topology };
    Kind kind = Kind::Source;
    QString spec;  // "snapshot:/x", "xml:/y.xml", ...
};

SourceArg classifySource(const QString& arg);

}  // namespace immap::gui
