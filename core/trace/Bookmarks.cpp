#include "trace/Bookmarks.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <cerrno>

#include "io/AtomicFile.h"
#include "io/InputFile.h"
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
    std::vector<Bookmark> out;
    for (const auto& v : doc.object()["bookmarks"].toArray()) {
        const QJsonObject o = v.toObject();
        const double e = o["event"].toDouble(-1);
        if (e < 0) throw TraceError(path, 1, "a bookmark without an \"event\" number");
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
