#include "sim/SweepShard.h"

#include <QCryptographicHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QStringList>
#include <algorithm>
#include <charconv>
#include <cmath>
#include <numeric>
#include <optional>
#include <tuple>

#include "io/InputError.h"
#include "io/JsonKeys.h"
#include "io/JsonLocator.h"
#include "limits/InputLimits.h"
#include "limits/LimitError.h"
#include "sim/Recipe.h"
#include "topology/Topology.h"

namespace immap::sim {

namespace {

constexpr const char* kFormat = "immap-sweep-part";
// 2: the grid has a walker-rate dimension ("walker_rates" in the identity, "walkers_per_s" in
// each row). 3: the identity holds the contents of the machine and the recipe and the program's
// version. An older part is refused by name rather than merged on a wrong grid or unchecked.
constexpr int kVersion = 3;
// The project's version (CMakeLists.txt), given to this file alone by core/sim/CMakeLists.txt.
constexpr const char* kProgramVersion = IMMAP_VERSION;

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
    // The contents, not only their names: `--topology host` on two hosts, or a machine file or
    // recipe edited between shards, has the same spec and path but is another sweep.
    const std::string machine = r.topology ? r.topology->canonicalText() : std::string();
    const Recipe& ran = r.recipe ? *r.recipe : Recipe::builtinDefault();
    return {{"topology", QString::fromStdString(r.topology ? r.topology->spec() : "")},
            {"topology_sha256",
             QString::fromLatin1(QCryptographicHash::hash(QByteArray::fromStdString(machine),
                                                          QCryptographicHash::Sha256)
                                     .toHex())},
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
            {"recipe_sha256", QString::fromStdString(ran.sha256)},
            {"immap_version", kProgramVersion},
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

namespace {

// A part's complaint, located: "NAME:LINE: reason" (QJsonDocument forgets positions, so the
// key is found again in the text).
struct Located {
    std::string reason;
    std::ptrdiff_t at = io::JsonLocator::kNotFound;
};

// What the identity says about the grid, checked before anything is sized by it: the lists a
// sweep accepts (each entry as `immap sweep` parses it, their lengths and product within
// InputLimits), seeds and bands as the CLI takes them.
struct Grid {
    std::vector<double> rates;
    std::vector<std::string> policies;
    std::vector<unsigned> copies;
    unsigned seeds = 1, bands = 0;
    std::size_t size() const { return rates.size() * policies.size() * copies.size(); }
};

std::optional<Located> readGrid(const QJsonObject& sweep, const io::JsonLocator& at,
                                std::ptrdiff_t sweepAt, Grid& g) {
    auto key = [&](const char* k) { return at.key(k, sweepAt); };
    using limits::InputLimits;
    std::string range;
    for (const char* list : {"walker_rates", "policies", "copies"})
        if (!sweep[list].isArray() || sweep[list].toArray().isEmpty())
            return Located{std::string("the sweep's \"") + list +
                               "\" is missing or empty (a list of at least one entry)",
                           key(list)};
    try {
        Sweep::checkGrid(static_cast<std::size_t>(sweep["walker_rates"].toArray().size()),
                         static_cast<std::size_t>(sweep["policies"].toArray().size()),
                         static_cast<std::size_t>(sweep["copies"].toArray().size()));
    } catch (const limits::LimitError& e) {
        return Located{std::string("the sweep's grid is larger than a sweep runs: ") + e.what(),
                       sweepAt};
    }
    for (const QJsonValue v : sweep["walker_rates"].toArray()) {
        if (!v.isDouble() ||
            !InputLimits::check("walkers_per_s", v.toDouble(), range, "a walker rate"))
            return Located{v.isDouble() ? range : "a walker rate is not a number",
                           key("walker_rates")};
        g.rates.push_back(v.toDouble());
    }
    for (const QJsonValue v : sweep["policies"].toArray()) {
        mapping::Policy p;
        std::string why;
        if (!v.isString() || !mapping::Policy::parse(v.toString().toStdString(), p, why))
            return Located{"the sweep's policy \"" + v.toString().toStdString() + "\" is unknown" +
                               (why.empty() ? "" : ": " + why),
                           key("policies")};
        g.policies.push_back(v.toString().toStdString());
    }
    for (const QJsonValue v : sweep["copies"].toArray()) {
        const double c = v.toDouble(-1);
        if (!v.isDouble() || c != std::floor(c) ||
            !InputLimits::check("copies", c, range, "a copy count"))
            return Located{range.empty() ? "a copy count is not a whole number" : range,
                           key("copies")};
        g.copies.push_back(static_cast<unsigned>(c));
    }
    for (const auto& [name, max, out] :
         {std::tuple{"seeds", 1000.0, &g.seeds}, std::tuple{"bands", 1000.0, &g.bands}}) {
        const double v = sweep[name].toDouble(-1);
        const double min = std::string_view(name) == "seeds" ? 1 : 0;
        if (!sweep[name].isDouble() || v != std::floor(v) || v < min || v > max)
            return Located{std::string("the sweep's \"") + name +
                               "\" must be a whole number from " + InputLimits::number(min) +
                               " to 1000",
                           key(name)};
        *out = static_cast<unsigned>(v);
    }
    return std::nullopt;
}

// Why two identities are not one sweep: the first key that differs, in words.
std::string difference(const QJsonObject& mine, const QJsonObject& first) {
    QStringList keys = mine.keys() + first.keys();
    keys.removeDuplicates();
    keys.sort();
    for (const QString& k : keys) {
        if (mine[k] == first[k]) continue;
        const std::string key = k.toStdString();
        if (key == "topology_sha256")
            return "the machine as read differs (topology_sha256): another host under the same "
                   "spec, or its topology file changed between shards";
        if (key == "recipe_sha256")
            return "the recipe's contents differ (recipe_sha256): it changed between shards";
        if (key == "immap_version")
            return "it was made by immap " + mine[k].toString().toStdString() + ", the other by " +
                   first[k].toString().toStdString() + " (run every shard with the same immap)";
        return "its \"" + key + "\" differs (machine, grid, seeds, window, walkers, recipe or " +
               "parameters)";
    }
    return "they differ";
}

}  // namespace

bool SweepShard::merge(const std::vector<SweepPart>& parts, std::vector<SweepRow>& rows,
                       std::string& error) {
    if (parts.empty()) {
        error = "no parts to merge";
        return false;
    }
    QJsonObject sweep;
    std::string sweepFrom;  // the first part's name
    Grid grid;
    unsigned of = 0;
    std::vector<std::string> shardFrom;  // by shard number - 1: the part that gave it
    std::vector<SweepRow> byIndex;
    std::vector<bool> have;
    for (const SweepPart& p : parts) {
        const io::JsonLocator at(p.text);
        auto fail = [&](const std::string& why,
                        std::ptrdiff_t offset = io::JsonLocator::kNotFound) {
            error = io::InputError::format(p.name,
                                           offset == io::JsonLocator::kNotFound
                                               ? 0
                                               : static_cast<std::size_t>(at.line(offset)),
                                           why);
            return false;
        };
        QJsonParseError pe{};
        const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(p.text), &pe);
        if (pe.error != QJsonParseError::NoError)
            return fail("not JSON (" + pe.errorString().toStdString() + " at byte " +
                            std::to_string(pe.offset) + ")",
                        pe.offset);
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
                            " (run every shard with the same immap)",
                        at.key("version", 0));
        const double k = o["shard"].toDouble(), n = o["of"].toDouble();
        if (n < 1 || n > kMaxShards || n != static_cast<unsigned>(n) || k < 1 || k > n ||
            k != static_cast<unsigned>(k) || !o["sweep"].isObject() || !o["points"].isArray())
            return fail("its shard, of, sweep or points field is missing or malformed");
        const std::ptrdiff_t sweepAt = at.key("sweep", 0);
        if (of == 0) {
            of = static_cast<unsigned>(n);
            sweep = o["sweep"].toObject();
            sweepFrom = p.name;
            shardFrom.assign(of, "");
            if (const auto bad = readGrid(sweep, at, sweepAt, grid))
                return fail(bad->reason, bad->at);
            byIndex.assign(grid.size(), {});
            have.assign(grid.size(), false);
        } else if (static_cast<unsigned>(n) != of) {
            return fail("is shard " + std::to_string(static_cast<unsigned>(k)) + " of " +
                            std::to_string(static_cast<unsigned>(n)) +
                            ", the first part's sweep has " + std::to_string(of) + " shards",
                        at.key("of", 0));
        } else if (o["sweep"].toObject() != sweep) {
            return fail("is a part of another sweep than " + sweepFrom + ": " +
                            difference(o["sweep"].toObject(), sweep),
                        sweepAt);
        }
        std::string& from = shardFrom[static_cast<std::size_t>(k) - 1];
        if (!from.empty())
            return fail("shard " + std::to_string(static_cast<unsigned>(k)) + " is also in " + from,
                        at.key("shard", 0));
        from = p.name;
        const std::vector<std::ptrdiff_t> starts = at.elements(at.key("points", 0));
        const QJsonArray points = o["points"].toArray();
        for (qsizetype j = 0; j < points.size(); ++j) {
            const std::ptrdiff_t pointAt = static_cast<std::size_t>(j) < starts.size()
                                               ? starts[static_cast<std::size_t>(j)]
                                               : io::JsonLocator::kNotFound;
            // A key of this point (`index`, `row`) or of its row (`inRow`), found within this
            // point's text; the point's first line when it is not there.
            const std::ptrdiff_t next = static_cast<std::size_t>(j) + 1 < starts.size()
                                            ? starts[static_cast<std::size_t>(j) + 1]
                                            : static_cast<std::ptrdiff_t>(p.text.size());
            auto within = [&](std::ptrdiff_t found) {
                return found >= 0 && found < next ? found : pointAt;
            };
            auto keyAt = [&](const char* key) { return within(at.key(key, pointAt)); };
            auto inRow = [&](const std::string& key) {
                const std::ptrdiff_t rowAt = keyAt("row");
                return within(at.key(key, rowAt));
            };
            const QJsonObject pt = points[j].toObject();
            const double index = pt["index"].toDouble(-1);
            if (index < 0 || index >= static_cast<double>(byIndex.size()) ||
                index != static_cast<std::size_t>(index))
                return fail("a point's index is outside the sweep's grid", keyAt("index"));
            const auto i = static_cast<std::size_t>(index);
            if (have[i])
                return fail("point " + std::to_string(i) + " is given twice", keyAt("index"));
            std::string why, field;
            if (!SweepRow::fromJson(pt["row"].toObject(), byIndex[i], why, &field))
                return fail(why, field.empty() ? keyAt("row") : inRow(field));
            // The row must be the grid's point at its index (walker rates outermost, then
            // policies, copies inner): a row filed under the wrong index would be merged into
            // the wrong curve without a word.
            const SweepRow& row = byIndex[i];
            const std::size_t nc = grid.copies.size(), np = grid.policies.size();
            if (row.copies != grid.copies[i % nc] || row.policy != grid.policies[i / nc % np] ||
                row.walkersPerSecond != grid.rates[i / nc / np])
                return fail("point " + std::to_string(i) + " is " + row.policy + " at " +
                                std::to_string(row.copies) + " copies and " +
                                QString::number(row.walkersPerSecond).toStdString() +
                                " walks/s, not the grid's point there",
                            keyAt("row"));
            // Sweep::run keeps each seed's rate only when there are several.
            const std::size_t seeds = grid.seeds > 1 ? grid.seeds : 0;
            if (row.seedRates.size() != seeds)
                return fail(
                    "point " + std::to_string(i) + " has " + std::to_string(row.seedRates.size()) +
                        " seed rates; the sweep runs " + std::to_string(grid.seeds) + " seed" +
                        (grid.seeds == 1 ? "" : "s") + (seeds ? "" : " (and then lists none)"),
                    inRow("seed_rates"));
            if (row.bandRates.size() != grid.bands)
                return fail("point " + std::to_string(i) + " has " +
                                std::to_string(row.bandRates.size()) +
                                " band rates; the sweep draws " + std::to_string(grid.bands) +
                                " parameter sets",
                            inRow("band_rates"));
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
