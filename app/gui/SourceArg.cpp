#include "SourceArg.h"

#include <QFileInfo>

namespace immap::gui {

SourceArg classifySource(const QString& arg) {
    static const char* kPrefixes[] = {"maps:", "snapshot:", "synthetic:", "trace:"};
    for (const char* p : kPrefixes)
        if (arg.startsWith(QLatin1String(p))) return {SourceArg::Kind::Source, arg};
    if (arg == QLatin1String("live")) return {SourceArg::Kind::Source, arg};
    if (arg.startsWith(QLatin1String("xml:"))) return {SourceArg::Kind::Topology, arg};
    const QFileInfo info(arg);
    const QString lower = arg.toLower();
    if (info.isDir() || lower.endsWith(QLatin1String(".tar")) ||
        lower.endsWith(QLatin1String(".tar.gz")) || lower.endsWith(QLatin1String(".tgz")))
        return {SourceArg::Kind::Source, QStringLiteral("snapshot:") + arg};
    if (lower.endsWith(QLatin1String(".xml")))
        return {SourceArg::Kind::Topology, QStringLiteral("xml:") + arg};
    return {SourceArg::Kind::Source, QStringLiteral("maps:") + arg};
}

}  // namespace immap::gui
