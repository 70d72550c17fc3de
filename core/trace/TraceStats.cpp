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
    while (reader.next(e)) {
        ++s.events;
        if (e.inferred) ++s.inferredEvents;
        switch (e.kind) {
            case sim::SimEvent::ExecBegin:
                ++s.execs;
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
