#include "trace/Bookmarks.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <cerrno>
#include <cmath>

#include "io/AtomicFile.h"
#include "io/InputFile.h"
#include "io/JsonKeys.h"
#include "io/TextPosition.h"
#include "trace/TraceError.h"

namespace immap::trace {

std::vector<Bookmark> Bookmarks::load(const std::string& path) {
    // Optional: a trace without a sidecar has no bookmarks. One that is there but is a FIFO, a
    // device or too large is refused, never read.
    io::InputFile f(path, std::uint64_t{16} << 20, "a bookmarks file");
    if (f.error() == ENOENT) return {};
    std::string raw;
    if (!f.ok() || !f.readAll(raw)) throw TraceError(path, 0, f.reason());
    const QByteArray text = QByteArray::fromStdString(raw);
    QJsonParseError err{};
    const QJsonDocument doc = QJsonDocument::fromJson(text, &err);
    if (err.error != QJsonParseError::NoError) {
        const int line =
            io::TextPosition::lineOf(raw, static_cast<std::size_t>(std::max(0, err.offset)));
        throw TraceError(path, static_cast<std::uint64_t>(line),
                         "not valid JSON: " + err.errorString().toStdString());
    }
    io::JsonKeys::refuse<TraceError>(raw, path);
    // Located as the scenario's fields are: the line of the key at fault (keys are unique now).
    auto lineOf = [&](const char* key, std::size_t nth) -> std::uint64_t {
        const std::vector<int> lines = io::JsonKeys::linesOf(raw, key);
        return nth < lines.size() ? static_cast<std::uint64_t>(lines[nth]) : 1;
    };
    const char* shape =
        "a bookmarks file is {\"bookmarks\": [{\"event\": N, \"caption\": \"...\"}]}";
    if (!doc.isObject()) throw TraceError(path, 1, shape);
    const QJsonObject root = doc.object();
    for (auto it = root.begin(); it != root.end(); ++it)
        if (it.key() != QLatin1String("bookmarks"))
            throw TraceError(path, lineOf(it.key().toUtf8().constData(), 0),
                             "unknown key \"" + it.key().toStdString() + "\" (" + shape + ")");
    if (!root["bookmarks"].isArray())
        throw TraceError(path, lineOf("bookmarks", 0),
                         root.contains("bookmarks") ? "\"bookmarks\" must be a list" : shape);
    std::vector<Bookmark> out;
    // Every earlier bookmark had one "event" and no other object, so the n-th "event" key is
    // bookmark n's; captions are optional, so they are counted.
    std::size_t captions = 0;
    const QJsonArray list = root["bookmarks"].toArray();
    for (qsizetype i = 0; i < list.size(); ++i) {
        const std::size_t n = static_cast<std::size_t>(i);
        const std::string which = "bookmark " + std::to_string(i + 1);
        if (!list[i].isObject() || !list[i].toObject().contains("event"))
            throw TraceError(path, lineOf("bookmarks", 0),
                             which + " is not {\"event\": N, \"caption\": \"...\"}");
        const QJsonObject o = list[i].toObject();
        for (auto it = o.begin(); it != o.end(); ++it)
            if (it.key() != QLatin1String("event") && it.key() != QLatin1String("caption"))
                throw TraceError(path, lineOf("event", n),
                                 which + ": unknown key \"" + it.key().toStdString() +
                                     "\" (known: caption, event)");
        // An event count: a whole number a double holds exactly (a cast of 1e300 is undefined).
        const double e = o["event"].toDouble(-1);
        if (!o["event"].isDouble() || !(e >= 0 && e <= 9007199254740992.0) || e != std::floor(e))
            throw TraceError(path, lineOf("event", n),
                             which + ": \"event\" must be a whole number from 0 to 2^53");
        if (o.contains("caption") && !o["caption"].isString())
            throw TraceError(path, lineOf("caption", captions),
                             which + ": \"caption\" must be a string");
        captions += o.contains("caption") ? 1 : 0;
        out.push_back({static_cast<std::uint64_t>(e), o["caption"].toString().toStdString()});
    }
    return out;
}

void Bookmarks::save(const std::string& path, const std::vector<Bookmark>& marks) {
    QJsonArray arr;
    for (const Bookmark& b : marks)
        arr.append(QJsonObject{{"event", static_cast<double>(b.event)},
                               {"caption", QString::fromStdString(b.caption)}});
    io::AtomicFile f(path);  // refuses a device, a FIFO or a directory
    if (!f.write(QJsonDocument(QJsonObject{{"bookmarks", arr}}).toJson().toStdString()) ||
        !f.commit())
        throw TraceError(path, 0, f.reason());
}

}  // namespace immap::trace
