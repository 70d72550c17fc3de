#include "session/ScenarioResults.h"

#include <QJsonArray>
#include <QJsonObject>

#include "sim/ResultCodec.h"
#include "sim/RunKey.h"

namespace immap::session {

namespace {

// qUncompress allocates what the stream's first four bytes claim: a result is tens of KB.
constexpr quint32 kMaxResultBytes = 16u << 20;

}  // namespace

QJsonValue ScenarioResults::toJson(const Map& results) {
    QJsonArray a;
    for (const auto& [key, run] : results) {
        QJsonObject o{{"key", QString::fromStdString(key)}};
        if (run.result.empty())
            o["execs_per_s"] = run.execsPerSecond;  // Qt writes the shortest exact form
        else
            o["zlib"] =
                QString::fromLatin1(qCompress(QByteArray::fromStdString(run.result), 9).toBase64());
        a.append(o);
    }
    return a;
}

ScenarioResults::Map ScenarioResults::fromJson(
    const QJsonValue& value, const io::JsonLocator& at, qsizetype keyAt,
    const std::function<void(qsizetype, const std::string&)>& fail) {
    if (!value.isArray())
        fail(keyAt, "\"results\" must be a list of {\"key\": ..., \"zlib\": ...}");
    Map out;
    const std::vector<std::ptrdiff_t> starts = at.elements(keyAt);
    std::size_t n = 0;
    for (const QJsonValue& v : value.toArray()) {
        const qsizetype where = n < starts.size() ? starts[n] : keyAt;
        ++n;
        const std::string which = " (result " + std::to_string(n) + ")";
        const QJsonObject e = v.toObject();
        const bool rate = e.size() == 2 && e["execs_per_s"].isDouble();
        if (!v.isObject() || e.size() != 2 || !e["key"].isString() ||
            !(e["zlib"].isString() || rate))
            fail(where,
                 "a result must be {\"key\": ..., \"zlib\": ...} or {\"key\": ..., "
                 "\"execs_per_s\": ...}" +
                     which);
        const QJsonObject o = v.toObject();
        const std::string key = o["key"].toString().toStdString();
        if (!sim::RunKey::wellFormed(key))
            fail(where, "\"key\" must be 64 lowercase hex digits (a run key)" + which);
        if (out.count(key)) fail(where, "the run " + key.substr(0, 12) + "... twice" + which);
        if (rate) {
            const double r = e["execs_per_s"].toDouble();
            if (!(r >= 0 && r < 1e15)) fail(where, "\"execs_per_s\" out of range" + which);
            out[key] = {std::string(), r};
            continue;
        }
        const QByteArray packed = QByteArray::fromBase64(o["zlib"].toString().toLatin1(),
                                                         QByteArray::AbortOnBase64DecodingErrors);
        const auto claimed = packed.size() >= 4 ? (quint32(quint8(packed[0])) << 24) |
                                                      (quint32(quint8(packed[1])) << 16) |
                                                      (quint32(quint8(packed[2])) << 8) |
                                                      quint32(quint8(packed[3]))
                                                : 0u;
        const QByteArray text =
            claimed > 0 && claimed <= kMaxResultBytes ? qUncompress(packed) : QByteArray();
        if (text.isEmpty()) fail(where, "\"zlib\" is not a compressed result" + which);
        sim::SimResult r;
        std::string why;
        if (!sim::ResultCodec::decode(text.toStdString(), r, why))
            fail(where, "not a result: " + why + which);
        out[key] = {text.toStdString(), r.execsPerSecond};
    }
    return out;
}

ScenarioResults::Map ScenarioResults::known(const sim::SweepConfig& sweep, sim::RunCache& cache) {
    Map out;
    const unsigned seeds = std::max(1u, sweep.seeds);
    for (const sim::SweepRun& run : sim::Sweep::runs(sweep)) {
        const bool draw = run.isDraw(seeds);
        const std::string key = sim::RunKey::of(run.config);
        const std::optional<sim::SimResult> r =
            cache.lookup(key, draw ? sim::RunCache::Need::Rate : sim::RunCache::Need::Full);
        if (r) out[key] = {draw ? std::string() : sim::ResultCodec::encode(*r), r->execsPerSecond};
    }
    return out;
}

void ScenarioResults::preload(const Map& results, sim::RunCache& cache) {
    for (const auto& [key, run] : results) {
        if (run.result.empty()) {
            cache.preloadRate(key, run.execsPerSecond);
            continue;
        }
        sim::SimResult r;
        std::string why;
        // fromJson checked every one: a failure here is not possible, and would only cost time.
        if (sim::ResultCodec::decode(run.result, r, why)) cache.preload(key, std::move(r));
    }
}

}  // namespace immap::session
