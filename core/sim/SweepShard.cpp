#include "sim/SweepShard.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <algorithm>
#include <charconv>
#include <numeric>

#include "io/JsonKeys.h"
#include "topology/Topology.h"

namespace immap::sim {

namespace {

constexpr const char* kFormat = "immap-sweep-part";
// 2: the grid has a walker-rate dimension ("walker_rates" in the identity, "walkers_per_s" in
// each row). A version-1 part is refused by name rather than merged on a wrong grid.
constexpr int kVersion = 2;

bool number(std::string_view text, unsigned& out) {
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
    return ec == std::errc() && end == text.data() + text.size() && !text.empty();
}

}  // namespace

bool SweepShard::parse(std::string_view text, unsigned& k, unsigned& n, std::string& error) {
    const std::size_t slash = text.find('/');
    if (slash == std::string_view::npos || !number(text.substr(0, slash), k) ||
        !number(text.substr(slash + 1), n) || n == 0 || n > kMaxShards || k == 0 || k > n) {
        error = "must be K/N with 1 <= K <= N <= " + std::to_string(kMaxShards) + ", not '" +
                std::string(text) + "'";
        return false;
    }
    return true;
}

std::vector<std::size_t> SweepShard::points(const SweepConfig& config, unsigned k, unsigned n) {
    // Copies are the innermost dimension of the grid (walker rates, policies, copies), so a
    // point's copy count is its index modulo their number.
    const std::size_t perPolicy = config.copies.size();
    std::vector<std::size_t> order(config.gridSize());
    std::iota(order.begin(), order.end(), 0);
    // Largest copy counts first: the costly points are dealt out before the cheap ones.
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return config.copies[a % perPolicy] > config.copies[b % perPolicy];
    });
    std::vector<std::size_t> mine;
    for (std::size_t i = k - 1; i < order.size(); i += n)
        mine.push_back(order[i]);
    std::sort(mine.begin(), mine.end());
    return mine;
}

QJsonObject SweepShard::identity(const SweepConfig& config, const std::string& recipe) {
    QJsonArray rates, policies, copies;
    for (double r : config.rates())
        rates.append(r);
    for (const mapping::Policy& p : config.policies)
        policies.append(QString::fromStdString(p.name()));
    for (unsigned c : config.copies)
        copies.append(static_cast<double>(c));
    QJsonObject params;
    for (const CostParams::Info& i : CostParams::table())
        params[i.name] = config.run.params.*(i.field);
    const SimConfig& r = config.run;
    return {{"topology", QString::fromStdString(r.topology ? r.topology->spec() : "")},
            {"policies", policies},
            {"copies", copies},
            {"seeds", static_cast<double>(config.seeds)},
            {"bands", static_cast<double>(config.bands)},
            {"seed", QString::number(r.seed)},
            {"duration_ms", r.durationMs},
            // The rates the grid runs, not run.walkersPerSecond: with walkerRates given, that
            // one runs nowhere and must not tell two equal sweeps apart.
            {"walker_rates", rates},
            {"recipe", QString::fromStdString(recipe)},
            {"params", params}};
}

std::string SweepShard::part(const QJsonObject& identity, unsigned k, unsigned n,
                             const std::vector<std::size_t>& points,
                             const std::vector<SweepRow>& rows) {
    QJsonArray out;
    for (std::size_t i = 0; i < points.size() && i < rows.size(); ++i)
        out.append(
            QJsonObject{{"index", static_cast<double>(points[i])}, {"row", rows[i].toJson()}});
    const QJsonObject root{{"format", kFormat},
                           {"version", kVersion},
                           {"shard", static_cast<double>(k)},
                           {"of", static_cast<double>(n)},
                           {"sweep", identity},
                           {"points", out}};
    return QJsonDocument(root).toJson(QJsonDocument::Indented).toStdString();
}

bool SweepShard::merge(const std::vector<SweepPart>& parts, std::vector<SweepRow>& rows,
                       std::string& error) {
    if (parts.empty()) {
        error = "no parts to merge";
        return false;
    }
    QJsonObject sweep;
    unsigned of = 0;
    std::vector<std::string> shardFrom;  // by shard number - 1: the part that gave it
    std::vector<SweepRow> byIndex;
    std::vector<bool> have;
    for (const SweepPart& p : parts) {
        auto fail = [&](const std::string& why) {
            error = p.name + ": " + why;
            return false;
        };
        QJsonParseError pe{};
        const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(p.text), &pe);
        if (pe.error != QJsonParseError::NoError)
            return fail("not JSON (" + pe.errorString().toStdString() + " at byte " +
                        std::to_string(pe.offset) + ")");
        if (const auto d = io::JsonKeys::firstDuplicate(p.text)) {
            error = io::InputError::format(p.name, static_cast<std::size_t>(d->line), d->reason());
            return false;
        }
        const QJsonObject o = doc.object();
        if (o["format"].toString() != kFormat)
            return fail("not an immap sweep part (format \"immap-sweep-part\")");
        if (o["version"].toInt() != kVersion)
            return fail("is a part of version " + std::to_string(o["version"].toInt()) +
                        "; this immap merges version " + std::to_string(kVersion) +
                        " (run every shard with the same immap)");
        const double k = o["shard"].toDouble(), n = o["of"].toDouble();
        if (n < 1 || n > kMaxShards || n != static_cast<unsigned>(n) || k < 1 || k > n ||
            k != static_cast<unsigned>(k) || !o["sweep"].isObject() || !o["points"].isArray())
            return fail("its shard, of, sweep or points field is missing or malformed");
        if (of == 0) {
            of = static_cast<unsigned>(n);
            sweep = o["sweep"].toObject();
            shardFrom.assign(of, "");
            if (sweep["walker_rates"].toArray().isEmpty())
                return fail("its sweep has no walker_rates (a list of at least one rate)");
            const std::size_t grid =
                static_cast<std::size_t>(sweep["walker_rates"].toArray().size()) *
                static_cast<std::size_t>(sweep["policies"].toArray().size()) *
                static_cast<std::size_t>(sweep["copies"].toArray().size());
            byIndex.assign(grid, {});
            have.assign(grid, false);
        } else if (static_cast<unsigned>(n) != of) {
            return fail("is shard " + std::to_string(static_cast<unsigned>(k)) + " of " +
                        std::to_string(static_cast<unsigned>(n)) + ", the first part's sweep has " +
                        std::to_string(of) + " shards");
        } else if (o["sweep"].toObject() != sweep) {
            return fail(
                "is a part of another sweep (machine, grid, seeds, window, walkers, "
                "recipe or parameters differ from the first part's)");
        }
        std::string& from = shardFrom[static_cast<std::size_t>(k) - 1];
        if (!from.empty())
            return fail("shard " + std::to_string(static_cast<unsigned>(k)) + " is also in " +
                        from);
        from = p.name;
        for (const QJsonValue v : o["points"].toArray()) {
            const QJsonObject pt = v.toObject();
            const double index = pt["index"].toDouble(-1);
            if (index < 0 || index >= static_cast<double>(byIndex.size()) ||
                index != static_cast<std::size_t>(index))
                return fail("a point's index is outside the sweep's grid");
            const auto i = static_cast<std::size_t>(index);
            if (have[i]) return fail("point " + std::to_string(i) + " is given twice");
            std::string why;
            if (!SweepRow::fromJson(pt["row"].toObject(), byIndex[i], why)) return fail(why);
            // The row must be the grid's point at its index (walker rates outermost, then
            // policies, copies inner): a row filed under the wrong index would be merged into
            // the wrong curve without a word.
            const QJsonArray rates = sweep["walker_rates"].toArray();
            const QJsonArray policies = sweep["policies"].toArray();
            const QJsonArray copies = sweep["copies"].toArray();
            const SweepRow& row = byIndex[i];
            const auto nc = static_cast<std::size_t>(copies.size());
            const auto np = static_cast<std::size_t>(policies.size());
            const auto at = [](const QJsonArray& a, std::size_t j) {
                return a[static_cast<qsizetype>(j)];
            };
            if (row.copies != at(copies, i % nc).toDouble() ||
                row.policy != at(policies, i / nc % np).toString().toStdString() ||
                row.walkersPerSecond != at(rates, i / nc / np).toDouble())
                return fail("point " + std::to_string(i) + " is " + row.policy + " at " +
                            std::to_string(row.copies) + " copies and " +
                            QString::number(row.walkersPerSecond).toStdString() +
                            " walks/s, not the grid's point there");
            have[i] = true;
        }
    }
    for (std::size_t k = 0; k < shardFrom.size(); ++k)
        if (shardFrom[k].empty()) {
            error = "shard " + std::to_string(k + 1) + " of " + std::to_string(of) +
                    " is missing: no part has it";
            return false;
        }
    for (std::size_t i = 0; i < have.size(); ++i)
        if (!have[i]) {
            error = "point " + std::to_string(i) + " of the grid is in no part";
            return false;
        }
    rows = std::move(byIndex);
    return true;
}

}  // namespace immap::sim
