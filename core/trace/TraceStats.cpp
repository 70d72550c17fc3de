#include "trace/TraceStats.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include "trace/TraceError.h"
#include "trace/TraceReader.h"
#include "trace/TraceReplay.h"

namespace immap::trace {

TraceStats TraceStats::of(TraceReader& reader) {
    TraceStats s;
    const TraceHeader& h = reader.header();
    for (const std::string& f : h.files)
        s.files.push_back({f});
    TraceReplay replay(h);
    sim::SimEvent e;
    std::string reason;
    std::int64_t first = 0, last = 0;
    while (reader.next(e)) {
        if (s.events == 0) first = e.time;
        last = e.time;
        ++s.events;
        if (e.inferred) ++s.inferredEvents;
        switch (e.kind) {
            case sim::SimEvent::ExecBegin:
                ++s.execs;
                break;
            case sim::SimEvent::ExecEnd:
                ++s.rate.ends;
                break;
            case sim::SimEvent::TreeInsert:
                ++s.files[static_cast<std::size_t>(e.file)].inserts;
                break;
            case sim::SimEvent::TreeRemove:
                ++s.files[static_cast<std::size_t>(e.file)].removes;
                break;
            case sim::SimEvent::LockRelease:
                ++s.files[static_cast<std::size_t>(e.file)].lockHolds;
                break;
            default:
                break;
        }
        if (!replay.apply(e, reason)) throw TraceError(reader.path(), reader.line(), reason);
    }
    s.rate.begins = s.execs;
    // As the timeline's whole range: [first, last + 1).
    s.rate.spanNs = s.events ? last - first + 1 : 0;
    s.error = reader.error();
    for (std::size_t f = 0; f < s.files.size(); ++f)
        for (std::size_t t = 0; t < replay.treeCount(static_cast<int>(f)); ++t)
            s.files[f].finalVmas += replay.tree(static_cast<int>(f), static_cast<int>(t)).size();
    return s;
}

std::string TraceStats::toJson() const {
    QJsonObject o;
    o["events"] = static_cast<double>(events);
    o["execs"] = static_cast<double>(execs);
    o["inferred_events"] = static_cast<double>(inferredEvents);
    QJsonArray fs;
    const double n = execs ? static_cast<double>(execs) : 1.0;
    for (const TraceFileStats& f : files) {
        QJsonObject j;
        j["path"] = QString::fromStdString(f.path);
        j["inserts"] = static_cast<double>(f.inserts);
        j["removes"] = static_cast<double>(f.removes);
        j["lock_holds"] = static_cast<double>(f.lockHolds);
        j["final_vmas"] = static_cast<double>(f.finalVmas);
        j["per_exec"] = QJsonObject{{"inserts", static_cast<double>(f.inserts) / n},
                                    {"removes", static_cast<double>(f.removes) / n},
                                    {"lock_holds", static_cast<double>(f.lockHolds) / n}};
        fs.append(j);
    }
    o["files"] = fs;
    if (!error.empty()) o["error"] = QString::fromStdString(error);
    return QJsonDocument(o).toJson(QJsonDocument::Indented).toStdString();
}

}  // namespace immap::trace
