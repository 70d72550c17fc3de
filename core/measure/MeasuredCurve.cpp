#include "measure/MeasuredCurve.h"

#include <sys/utsname.h>

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <cmath>

#include "io/InputFile.h"
#include "io/JsonKeys.h"
#include "io/TextPosition.h"

namespace immap::measure {

std::string MeasuredCurve::toJson() const {
    QJsonObject o;
    o["format"] = "immap-measured";
    o["version"] = 1;
    o["kind"] = QString::fromStdString(kind);
    o["host"] = QString::fromStdString(host);
    o["kernel"] = QString::fromStdString(kernel);
    o["topology"] = QString::fromStdString(topology);
    o["pus"] = static_cast<double>(pus);
    o["nodes"] = static_cast<double>(nodes);
    o["load_average"] = loadAverage;
    o["seconds"] = seconds;
    o["repeat"] = static_cast<double>(repeat);
    o["helper"] = QString::fromStdString(helper);
    QJsonArray pts;
    for (const MeasuredPoint& p : points) {
        QJsonObject j;
        j["copies"] = static_cast<double>(p.copies);
        j["execs_per_s"] = p.execsPerSecond;
        j["stddev"] = p.stddev;
        QJsonArray runs;
        for (double r : p.runs)
            runs.append(r);
        j["runs"] = runs;
        pts.append(j);
    }
    o["points"] = pts;
    return QJsonDocument(o).toJson(QJsonDocument::Indented).toStdString();
}

MeasuredCurve MeasuredCurve::fromJson(const std::string& json, const std::string& name) {
    auto fail = [&](const std::string& why) { return MeasureError(name, 0, why); };
    QJsonParseError e{};
    const QJsonDocument d = QJsonDocument::fromJson(QByteArray::fromStdString(json), &e);
    if (e.error != QJsonParseError::NoError)
        throw MeasureError(
            name, io::TextPosition::lineOf(json, static_cast<std::size_t>(std::max(0, e.offset))),
            "not valid JSON: " + e.errorString().toStdString());
    io::JsonKeys::refuse<MeasureError>(json, name);
    const QJsonObject o = d.object();
    if (o["format"].toString() != "immap-measured")
        throw fail("\"format\" is not \"immap-measured\"");
    if (o["version"].toInt() != 1) throw fail("unsupported \"version\" (this reads 1)");
    MeasuredCurve c;
    c.kind = o["kind"].toString("execl").toStdString();
    c.host = o["host"].toString().toStdString();
    c.kernel = o["kernel"].toString().toStdString();
    c.topology = o["topology"].toString("host").toStdString();
    c.pus = static_cast<unsigned>(o["pus"].toInt());
    c.nodes = static_cast<unsigned>(o["nodes"].toInt());
    c.loadAverage = o["load_average"].toDouble(-1);
    c.seconds = o["seconds"].toDouble();
    c.repeat = static_cast<unsigned>(o["repeat"].toInt());
    c.helper = o["helper"].toString().toStdString();
    const QJsonArray pts = o["points"].toArray();
    if (pts.isEmpty()) throw fail("\"points\" is missing or empty");
    for (qsizetype i = 0; i < pts.size(); ++i) {
        const QJsonObject j = pts[i].toObject();
        const std::string at = "points[" + std::to_string(i) + "]: ";
        const double copies = j["copies"].toDouble(-1);
        if (copies < 1 || copies > 100000 || copies != std::floor(copies))
            throw fail(at + "\"copies\" must be a whole number from 1 to 100000");
        MeasuredPoint p;
        p.copies = static_cast<unsigned>(copies);
        p.execsPerSecond = j["execs_per_s"].toDouble(-1);
        if (!(p.execsPerSecond > 0) || !std::isfinite(p.execsPerSecond))
            throw fail(at + "\"execs_per_s\" must be a positive number");
        p.stddev = j["stddev"].toDouble(0);
        for (const auto& r : j["runs"].toArray())
            p.runs.push_back(r.toDouble());
        for (const MeasuredPoint& q : c.points)
            if (q.copies == p.copies)
                throw fail(at + "copies " + std::to_string(p.copies) + " is listed twice");
        c.points.push_back(std::move(p));
    }
    return c;
}

MeasuredCurve MeasuredCurve::fromFile(const std::string& path) {
    // A curve is a few kilobytes of JSON.
    return fromJson(
        io::InputFile::read<MeasureError>(path, std::uint64_t{16} << 20, "a measurements file"),
        path);
}

std::string hostName() {
    utsname u{};
    return uname(&u) == 0 ? u.nodename : "";
}

std::string kernelRelease() {
    utsname u{};
    return uname(&u) == 0 ? u.release : "";
}

double loadAverage1() {
    QFile f("/proc/loadavg");
    if (!f.open(QIODevice::ReadOnly)) return -1;
    bool ok = false;
    const double v = f.readAll().split(' ').value(0).toDouble(&ok);
    return ok ? v : -1;
}

void meanAndStddev(const std::vector<double>& v, double& mean, double& stddev) {
    mean = stddev = 0;
    if (v.empty()) return;
    for (double x : v)
        mean += x;
    mean /= static_cast<double>(v.size());
    if (v.size() < 2) return;
    double ss = 0;
    for (double x : v)
        ss += (x - mean) * (x - mean);
    stddev = std::sqrt(ss / static_cast<double>(v.size() - 1));
}

}  // namespace immap::measure
