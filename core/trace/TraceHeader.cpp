#include "trace/TraceHeader.h"

#include <cmath>

#include "io/JsonKeys.h"
#include "limits/InputLimits.h"
#include "limits/MemoryBudget.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include "trace/TraceError.h"

namespace immap::trace {

std::string TraceHeader::toLine() const {
    QJsonObject o;
    o["source"] = QString::fromStdString(source);
    o["topology"] = QString::fromStdString(topology);
    o["policy"] = QString::fromStdString(policy);
    o["recipe"] = QString::fromStdString(recipe);
    o["copies"] = static_cast<double>(copies);
    o["seed"] = QString::number(seed);
    o["duration_ms"] = durationMs;
    o["walkers_per_s"] = walkersPerSecond;
    o["time_origin_ns"] = QString::number(timeOriginNs);
    QJsonArray fs;
    for (const std::string& f : files)
        fs.append(QString::fromStdString(f));
    o["files"] = fs;
    o["trees_per_file"] = static_cast<double>(treesPerFile);
    QJsonArray cpus, nodes;
    for (unsigned c : copyCpus)
        cpus.append(static_cast<double>(c));
    for (int n : copyNodes)
        nodes.append(n);
    o["copy_cpus"] = cpus;
    o["copy_nodes"] = nodes;
    QJsonArray ls;
    for (const TraceLock& l : locks)
        ls.append(QJsonObject{{"name", QString::fromStdString(l.name)}, {"file", l.file}});
    o["locks"] = ls;
    o["walker_file"] = walkerFile;
    QJsonObject ps;
    for (const auto& [k, v] : params)
        ps[QString::fromStdString(k)] = v;
    o["params"] = ps;
    if (!note.empty()) o["note"] = QString::fromStdString(note);
    return std::string(kTraceMagic) + " " + std::to_string(kTraceVersion) + " " +
           QJsonDocument(o).toJson(QJsonDocument::Compact).toStdString();
}

TraceHeader TraceHeader::fromLine(const std::string& line, const std::string& file) {
    const std::string magic = std::string(kTraceMagic) + " ";
    if (line.compare(0, magic.size(), magic) != 0)
        throw TraceError(file, 1,
                         "not an immap trace (the first line must start with \"immap-trace\")");
    const std::size_t sp = line.find(' ', magic.size());
    const std::string version =
        line.substr(magic.size(), sp == std::string::npos ? std::string::npos : sp - magic.size());
    if (version == "1")
        throw TraceError(file, 1,
                         "trace format version 1 has no end record, so a cut recording cannot be "
                         "told from a whole one; record it again with this build (version " +
                             std::to_string(kTraceVersion) + ")");
    if (version != std::to_string(kTraceVersion))
        throw TraceError(file, 1,
                         "trace format version " + version +
                             " is not supported (this build reads version " +
                             std::to_string(kTraceVersion) + ")");
    if (sp == std::string::npos)
        throw TraceError(file, 1, "the header has no JSON after the version");
    QJsonParseError err{};
    const QByteArray json = QByteArray::fromStdString(line.substr(sp + 1));
    const QJsonDocument doc = QJsonDocument::fromJson(json, &err);
    if (err.error != QJsonParseError::NoError)
        throw TraceError(file, 1,
                         "the header's JSON is broken: " + err.errorString().toStdString());
    io::JsonKeys::refuse<TraceError>(std::string_view(line).substr(sp + 1), file);
    if (!doc.isObject()) throw TraceError(file, 1, "the header's JSON is not an object ({...})");
    const QJsonObject o = doc.object();
    TraceHeader h;
    h.source = o["source"].toString().toStdString();
    h.topology = o["topology"].toString().toStdString();
    h.policy = o["policy"].toString().toStdString();
    h.recipe = o["recipe"].toString().toStdString();
    // Range-checked before the cast: a double out of unsigned's range converts to garbage (UB).
    const double copies = o["copies"].toDouble();
    if (!(copies >= 0 && copies <= 4294967295.0))
        throw TraceError(file, 1, "copies must be from 0 to 4294967295");
    h.copies = static_cast<unsigned>(copies);
    // A string of decimal digits (JSON numbers lose 64-bit precision); "-1zz" is no seed.
    if (o.contains("seed")) {
        bool ok = false;
        const QString seed = o["seed"].toString();
        h.seed = seed.toULongLong(&ok);
        if (!o["seed"].isString() || !ok || !seed.front().isDigit())
            throw TraceError(file, 1, "seed must be a string of decimal digits below 2^64");
    }
    h.durationMs = o["duration_ms"].toDouble();
    // Replay adds it, in ns, to event times (at most 2^62): keep the sum inside int64.
    if (!(h.durationMs >= 0 && h.durationMs <= 1e12))
        throw TraceError(file, 1, "duration_ms must be from 0 to 1e12");
    // Every count sizes what replay allocates, so each is checked before anything is built.
    using limits::InputLimits;
    std::string range;
    h.walkersPerSecond = o["walkers_per_s"].toDouble();
    if (!InputLimits::check("walkers_per_s", h.walkersPerSecond, range))
        throw TraceError(file, 1, range);
    if (o.contains("time_origin_ns")) {
        bool ok = false;
        h.timeOriginNs = o["time_origin_ns"].toString().toLongLong(&ok);
        if (!ok || h.timeOriginNs < 0)
            throw TraceError(file, 1, "time_origin_ns must be a string of decimal digits");
    }
    const QJsonArray files = o["files"].toArray();
    if (!files.isEmpty() && !InputLimits::check("trace_files", files.size(), range, "files"))
        throw TraceError(file, 1,
                         "the header lists " + std::to_string(files.size()) + " files; " + range);
    for (const auto& f : files)
        h.files.push_back(f.toString().toStdString());
    const QJsonArray locks = o["locks"].toArray();
    if (!locks.isEmpty() && !InputLimits::check("trace_locks", locks.size(), range, "locks"))
        throw TraceError(file, 1,
                         "the header lists " + std::to_string(locks.size()) + " locks; " + range);
    for (const auto& l : locks) {
        const QJsonObject lo = l.toObject();
        TraceLock tl{lo["name"].toString().toStdString(), lo["file"].toInt(-1)};
        if (tl.file < 0 || tl.file >= static_cast<int>(h.files.size()))
            throw TraceError(file, 1, "lock \"" + tl.name + "\" names no file of the header");
        h.locks.push_back(tl);
    }
    h.walkerFile = o["walker_file"].toInt(-1);
    const double trees = o["trees_per_file"].toDouble(1);
    if (!(trees >= 1 && trees <= 4096))
        throw TraceError(file, 1, "trees_per_file must be from 1 to 4096");
    h.treesPerFile = static_cast<unsigned>(trees);
    const double allTrees = static_cast<double>(h.files.size()) * trees;
    if (!h.files.empty() &&
        !InputLimits::check("trace_trees", allTrees, range, "files x trees_per_file"))
        throw TraceError(file, 1,
                         std::to_string(h.files.size()) + " files with " +
                             std::to_string(h.treesPerFile) + " trees each make " +
                             limits::MemoryBudget::count(allTrees) + " trees to replay; " + range);
    const QJsonArray cpus = o["copy_cpus"].toArray();
    if (!InputLimits::check("trace_copy_cpus", cpus.size(), range, "copy_cpus entries"))
        throw TraceError(
            file, 1, "the header lists " + std::to_string(cpus.size()) + " copy_cpus; " + range);
    for (const auto& c : cpus) {
        // Range-checked before the cast, as copies above: -5 must not become CPU 4294967291.
        const double cpu = c.toDouble(-1);
        const auto& r = InputLimits::range("cpu");
        if (!c.isDouble() || cpu != std::floor(cpu) || !(cpu >= r.min && cpu <= r.max))
            throw TraceError(
                file, 1,
                "a copy_cpus entry must be a whole number from 0 to " + InputLimits::number(r.max));
        h.copyCpus.push_back(static_cast<unsigned>(cpu));
    }
    for (const auto& n : o["copy_nodes"].toArray()) {
        const double node = n.toDouble(-1);
        if (!n.isDouble() || node != std::floor(node) || !(node >= 0 && node < 4096))
            throw TraceError(file, 1, "a copy_nodes entry must be a whole number from 0 to 4095");
        h.copyNodes.push_back(static_cast<int>(node));
    }
    if (h.copyCpus.size() != h.copyNodes.size())
        throw TraceError(file, 1, "copy_cpus and copy_nodes differ in length");
    const QJsonObject ps = o["params"].toObject();
    for (auto it = ps.begin(); it != ps.end(); ++it) {
        if (!it.value().isDouble())
            throw TraceError(file, 1,
                             "parameter \"" + it.key().toStdString() + "\" is not a number");
        h.params[it.key().toStdString()] = it.value().toDouble();
    }
    h.note = o["note"].toString().toStdString();
    if (h.files.empty()) throw TraceError(file, 1, "the header lists no files");
    return h;
}

}  // namespace immap::trace
