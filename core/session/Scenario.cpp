#include "session/Scenario.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <algorithm>
#include <cctype>
#include <cmath>
#include <optional>
#include <set>
#include <stdexcept>

#include "io/AtomicFile.h"
#include "io/InputFile.h"
#include "io/JsonKeys.h"
#include "io/JsonLocator.h"
#include "io/OutputTarget.h"
#include "io/TextPosition.h"
#include "limits/InputLimits.h"
#include "mapping/Policy.h"
#include "session/DefaultScenario.h"
#include "session/ScenarioResults.h"
#include "sim/CostParams.h"
#include "sim/Recipe.h"

namespace immap::session {

namespace {

// Scenarios are small; a bigger file is a mistake, not a scenario.
constexpr std::uint64_t kMaxBytes = 4 << 20;

class Reader {
public:
    Reader(const QByteArray& text, std::string file)
        : at_(std::string_view(text.constData(), static_cast<std::size_t>(text.size()))),
          file_(std::move(file)) {}

    [[noreturn]] void fail(qsizetype offset, const std::string& reason) const {
        throw ScenarioError(file_, at_.line(offset), reason);
    }
    const io::JsonLocator& at() const { return at_; }
    const std::string& file() const { return file_; }

    // Checks that only `known` keys appear in `o` (which starts at `from`).
    void onlyKeys(const QJsonObject& o, const std::set<QString>& known, qsizetype from,
                  const std::string& where) const {
        for (auto it = o.begin(); it != o.end(); ++it)
            if (!known.count(it.key()))
                fail(at_.key(it.key().toStdString(), from),
                     "unknown key \"" + it.key().toStdString() + "\"" + where +
                         " (known: " + list(known) + ")");
    }
    std::string string(const QJsonValue& v, const QString& key, qsizetype keyAt) const {
        if (!v.isString()) fail(keyAt, "\"" + key.toStdString() + "\" must be a string");
        return v.toString().toStdString();
    }
    double number(const QJsonValue& v, const QString& key, qsizetype keyAt, double min,
                  double max) const {
        if (!v.isDouble()) fail(keyAt, "\"" + key.toStdString() + "\" must be a number");
        const double d = v.toDouble();
        if (!(d >= min && d <= max)) {
            // Appended, not chained from a literal: GCC 12 warns falsely (-Wrestrict) on
            // "..." + std::string chains here.
            std::string why = "\"";
            why += key.toStdString();
            why += "\" is " + fmt(d);
            why += ", out of range " + fmt(min) + ".." + fmt(max);
            fail(keyAt, why);
        }
        return d;
    }
    bool boolean(const QJsonValue& v, const QString& key, qsizetype keyAt) const {
        if (!v.isBool()) fail(keyAt, "\"" + key.toStdString() + "\" must be true or false");
        return v.toBool();
    }
    std::uint64_t integer(const QJsonValue& v, const QString& key, qsizetype keyAt, double min,
                          double max) const {
        const double d = number(v, key, keyAt, min, max);
        if (d != std::floor(d)) fail(keyAt, "\"" + key.toStdString() + "\" must be a whole number");
        return static_cast<std::uint64_t>(d);
    }

    static std::string fmt(double d) { return QString::number(d, 'g', 12).toStdString(); }
    static std::string list(const std::set<QString>& keys) {
        std::string s;
        for (const QString& k : keys)
            s += (s.empty() ? "" : ", ") + k.toStdString();
        return s;
    }

private:
    io::JsonLocator at_;
    std::string file_;
};

const std::set<QString> kTopKeys = {"version",
                                    "title",
                                    "topology",
                                    "source",
                                    "file",
                                    "policies",
                                    "copies",
                                    "walkersPerSecond",
                                    "walkersSideBySide",
                                    "recipe",
                                    "params",
                                    "view",
                                    "bookmarks",
                                    "durationMs",
                                    "seed",
                                    "bands",
                                    "results"};
const std::set<QString> kBookmarkKeys = {"caption", "view",   "event", "timeMs",
                                         "docks",   "points", "zoom"};

bool knownView(const std::string& v) {
    for (const std::string& n : Scenario::viewNames())
        if (n == v) return true;
    return false;
}

void readBookmarks(const Reader& r, const QJsonValue& v, qsizetype keyAt, Scenario& s) {
    if (!v.isArray()) r.fail(keyAt, "\"bookmarks\" must be a list of {\"caption\": ...}");
    const auto starts = r.at().elements(keyAt);
    const QJsonArray arr = v.toArray();
    for (qsizetype i = 0; i < arr.size(); ++i) {
        const qsizetype from =
            i < static_cast<qsizetype>(starts.size()) ? starts[static_cast<std::size_t>(i)] : keyAt;
        const std::string where = " in bookmark " + std::to_string(i + 1);
        if (!arr[i].isObject())
            r.fail(from,
                   "bookmark " + std::to_string(i + 1) + " must be an object {\"caption\": ...}");
        const QJsonObject o = arr[i].toObject();
        r.onlyKeys(o, kBookmarkKeys, from, where);
        ScenarioBookmark b;
        if (!o.contains("caption"))
            r.fail(from, "bookmark " + std::to_string(i + 1) + " has no \"caption\"");
        b.caption = r.string(o["caption"], "caption", r.at().key("caption", from));
        if (o.contains("view")) {
            const qsizetype k = r.at().key("view", from);
            b.view = r.string(o["view"], "view", k);
            if (!knownView(b.view)) r.fail(k, "unknown view \"" + b.view + "\"" + where);
        }
        if (o.contains("event"))
            b.event = r.integer(o["event"], "event", r.at().key("event", from), 0, 9.0e15);
        if (o.contains("timeMs"))
            b.timeMs = r.number(o["timeMs"], "timeMs", r.at().key("timeMs", from), 0, 1e9);
        if (o.contains("zoom"))
            b.zoom = r.number(o["zoom"], "zoom", r.at().key("zoom", from), 1, 64);
        if (o.contains("docks")) {
            const qsizetype k = r.at().key("docks", from);
            if (!o["docks"].isArray())
                r.fail(k, "\"docks\"" + where + " must be a list of dock names");
            b.docks.emplace();
            for (const QJsonValue& d : o["docks"].toArray()) {
                const std::string name = d.toString().toStdString();
                const auto& known = Scenario::dockNames();
                if (!d.isString() || std::find(known.begin(), known.end(), name) == known.end())
                    r.fail(k, "unknown dock \"" + name + "\"" + where +
                                  " (files, vmas, steps or parameters)");
                b.docks->push_back(name);
            }
        }
        if (o.contains("points")) {
            const qsizetype k = r.at().key("points", from);
            const std::string form = "\"points\"" + where +
                                     " must be a list of {\"policy\": NAME, \"copies\": N} "
                                     "(and \"walkers\": true for the curve with walkers)";
            if (!o["points"].isArray()) r.fail(k, form);
            for (const QJsonValue& pv : o["points"].toArray()) {
                const QJsonObject po = pv.toObject();
                const bool walkersKey = po.contains("walkers");
                if (!pv.isObject() || !po["policy"].isString() ||
                    po.size() != 2 + (walkersKey ? 1 : 0) || !po.contains("copies") ||
                    (walkersKey && !po["walkers"].isBool()))
                    r.fail(k, form);
                const std::string policy = po["policy"].toString().toStdString();
                mapping::Policy parsed;
                std::string why;
                if (!mapping::Policy::parse(policy, parsed, why))
                    r.fail(k, "unknown policy \"" + policy + "\"" + where + ": " + why);
                b.points.push_back(
                    {policy, static_cast<unsigned>(r.integer(po["copies"], "copies", k, 1, 1e6)),
                     po["walkers"].toBool(false)});
            }
        }
        s.bookmarks.push_back(std::move(b));
    }
}

// A grid list no longer than a sweep takes (limits::InputLimits), refused at its key before
// anything is made of each entry.
void listLength(const Reader& r, const QJsonArray& list, const char* limit, const char* key,
                qsizetype keyAt) {
    std::string range;
    if (!list.isEmpty() &&
        !limits::InputLimits::check(limit, static_cast<double>(list.size()), range,
                                    std::string("the \"") + key + "\" list"))
        r.fail(keyAt, "\"" + std::string(key) + "\" lists " + std::to_string(list.size()) +
                          " entries; " + range);
}

// Reads a file the scenario names: a regular file, and small (a device such as /dev/zero or a
// FIFO would never end). "recipe PATH: reason".
std::string readSmall(const std::string& path, const std::string& what) {
    io::InputFile f(path, kMaxBytes, "a scenario's " + what);
    std::string text;
    if (!f.ok() || !f.readAll(text))
        throw std::runtime_error(what + " " + path + ": " + f.reason());
    return text;
}

void readRecipe(const Reader& r, const QJsonValue& v, qsizetype keyAt, const std::string& baseDir,
                Scenario& s) {
    if (v.isString()) {
        s.recipePath = v.toString().toStdString();
        if (s.recipePath.empty()) r.fail(keyAt, "\"recipe\" is an empty path");
    } else if (v.isObject()) {
        s.recipeJson = QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact).toStdString();
    } else {
        r.fail(keyAt, "\"recipe\" must be a path (string) or an embedded recipe (object)");
    }
    try {
        const auto [text, name] = s.recipeText(baseDir, r.file());
        sim::Recipe::fromJson(text, name);
    } catch (const sim::RecipeError& e) {
        r.fail(keyAt, "recipe " + std::string(e.what()));
    } catch (const std::runtime_error& e) {
        r.fail(keyAt, e.what());
    }
}

}  // namespace

const std::vector<std::string>& Scenario::viewNames() {
    static const std::vector<std::string> names = {"split",    "trees",  "table",     "throughput",
                                                   "topology", "replay", "contention"};
    return names;
}

Scenario Scenario::fromJson(const std::string& json, const std::string& fileName,
                            const std::string& baseDir) {
    const QByteArray text = QByteArray::fromStdString(json);
    const Reader r(text, fileName);
    QJsonParseError err{};
    const QJsonDocument doc = QJsonDocument::fromJson(text, &err);
    if (err.error != QJsonParseError::NoError)
        r.fail(err.offset, "not valid JSON: " + err.errorString().toStdString());
    io::JsonKeys::refuse<ScenarioError>(json, fileName);
    if (!doc.isObject()) r.fail(0, "a scenario is a JSON object {\"version\": 1, ...}");
    const QJsonObject o = doc.object();
    r.onlyKeys(o, kTopKeys, 0, "");
    auto keyAt = [&](const char* k) { return r.at().key(k, 0); };

    if (!o.contains("version")) r.fail(0, "no \"version\" (this program reads version 1)");
    const auto version = r.integer(o["version"], "version", keyAt("version"), 1, 1e9);
    if (version != kVersion)
        r.fail(keyAt("version"),
               "version " + std::to_string(version) + " is not one this program reads (1)");

    Scenario s;
    if (o.contains("title")) s.title = r.string(o["title"], "title", keyAt("title"));
    if (o.contains("topology")) s.topology = r.string(o["topology"], "topology", keyAt("topology"));
    if (o.contains("source")) s.source = r.string(o["source"], "source", keyAt("source"));
    if (o.contains("file")) s.file = r.string(o["file"], "file", keyAt("file"));
    if (o.contains("view")) {
        s.view = r.string(o["view"], "view", keyAt("view"));
        if (!knownView(s.view)) r.fail(keyAt("view"), "unknown view \"" + s.view + "\"");
    }
    if (o.contains("policies")) {
        const qsizetype k = keyAt("policies");
        if (!o["policies"].isArray()) r.fail(k, "\"policies\" must be a list of policy names");
        // An empty list would read as "not given" (the window's own policies): say so instead.
        if (o["policies"].toArray().isEmpty())
            r.fail(k,
                   "\"policies\" is empty: name at least one, or leave the key out for the "
                   "window's policies");
        const QJsonArray arr = o["policies"].toArray();
        listLength(r, arr, "sweep_policies", "policies", k);
        const auto starts = r.at().elements(k);
        for (qsizetype i = 0; i < arr.size(); ++i) {
            const qsizetype at =
                i < static_cast<qsizetype>(starts.size()) ? starts[static_cast<std::size_t>(i)] : k;
            if (!arr[i].isString()) r.fail(at, "a policy must be a name such as \"split-locks\"");
            mapping::Policy p;
            std::string why;
            const std::string name = arr[i].toString().toStdString();
            if (!mapping::Policy::parse(name, p, why))
                r.fail(at, "unknown policy \"" + name + "\": " + why);
            s.policies.push_back(name);
        }
    }
    if (o.contains("copies")) {
        const qsizetype k = keyAt("copies");
        if (!o["copies"].isArray()) r.fail(k, "\"copies\" must be a list of copy counts");
        if (o["copies"].toArray().isEmpty())
            r.fail(k,
                   "\"copies\" is empty: give at least one copy count, or leave the key out "
                   "for the machine's default grid");
        const QJsonArray arr = o["copies"].toArray();
        listLength(r, arr, "sweep_copies", "copies", k);
        const auto starts = r.at().elements(k);
        for (qsizetype i = 0; i < arr.size(); ++i) {
            const qsizetype at =
                i < static_cast<qsizetype>(starts.size()) ? starts[static_cast<std::size_t>(i)] : k;
            s.copies.push_back(static_cast<unsigned>(r.integer(arr[i], "copies", at, 1, 100000)));
        }
    }
    if (o.contains("durationMs"))
        s.durationMs = r.number(o["durationMs"], "durationMs", keyAt("durationMs"), 1, 10000);
    if (o.contains("walkersPerSecond"))
        s.walkersPerSecond =
            r.number(o["walkersPerSecond"], "walkersPerSecond", keyAt("walkersPerSecond"), 0,
                     limits::InputLimits::range("walkers_per_s").max);
    if (o.contains("walkersSideBySide"))
        s.walkersSideBySide =
            r.boolean(o["walkersSideBySide"], "walkersSideBySide", keyAt("walkersSideBySide"));
    if (o.contains("seed"))
        s.seed = r.integer(o["seed"], "seed", keyAt("seed"), 0, 1e15);  // exact in a double
    if (o.contains("bands"))
        s.bands = static_cast<unsigned>(r.integer(o["bands"], "bands", keyAt("bands"), 0, 1000));
    if (o.contains("recipe")) readRecipe(r, o["recipe"], keyAt("recipe"), baseDir, s);
    if (o.contains("params")) {
        const qsizetype k = keyAt("params");
        if (!o["params"].isObject())
            r.fail(k,
                   "\"params\" must be an object {\"NAME\": VALUE} (immap simulate "
                   "--list-params)");
        const QJsonObject p = o["params"].toObject();
        sim::CostParams check;
        for (auto it = p.begin(); it != p.end(); ++it) {
            const qsizetype at = r.at().key(it.key().toStdString(), k);
            if (!it.value().isDouble())
                r.fail(at, "parameter \"" + it.key().toStdString() + "\" must be a number");
            std::string why;
            if (!check.set(it.key().toStdString(), it.value().toDouble(), why)) r.fail(at, why);
            s.params[it.key().toStdString()] = it.value().toDouble();
        }
    }
    if (o.contains("bookmarks")) readBookmarks(r, o["bookmarks"], keyAt("bookmarks"), s);
    if (o.contains("results"))
        s.results = ScenarioResults::fromJson(
            o["results"], r.at(), keyAt("results"),
            [&r](qsizetype at, const std::string& reason) { r.fail(at, reason); });
    return s;
}

const std::vector<std::string>& Scenario::dockNames() {
    static const std::vector<std::string> kNames{"files", "vmas", "steps", "parameters"};
    return kNames;
}

Scenario Scenario::load(const std::string& path) {
    std::string text = io::InputFile::read<ScenarioError>(path, kMaxBytes, "a scenario");
    const std::string dir = QFileInfo(QString::fromStdString(path)).absolutePath().toStdString();
    return fromJson(text, path, dir);
}

std::string Scenario::toJson() const {
    QJsonObject o;
    o["version"] = kVersion;
    if (!title.empty()) o["title"] = QString::fromStdString(title);
    if (!topology.empty()) o["topology"] = QString::fromStdString(topology);
    if (!source.empty()) o["source"] = QString::fromStdString(source);
    if (!file.empty()) o["file"] = QString::fromStdString(file);
    if (!policies.empty()) {
        QJsonArray a;
        for (const std::string& p : policies)
            a.append(QString::fromStdString(p));
        o["policies"] = a;
    }
    if (!copies.empty()) {
        QJsonArray a;
        for (unsigned c : copies)
            a.append(static_cast<int>(c));
        o["copies"] = a;
    }
    if (durationMs > 0) o["durationMs"] = durationMs;
    if (walkersPerSecond) o["walkersPerSecond"] = *walkersPerSecond;
    if (!walkersSideBySide) o["walkersSideBySide"] = false;
    if (seed != 1) o["seed"] = static_cast<double>(seed);
    if (bands > 0) o["bands"] = static_cast<int>(bands);
    if (!recipePath.empty()) {
        o["recipe"] = QString::fromStdString(recipePath);
    } else if (!recipeJson.empty()) {
        o["recipe"] = QJsonDocument::fromJson(QByteArray::fromStdString(recipeJson)).object();
    }
    if (!params.empty()) {
        QJsonObject p;
        for (const auto& [name, value] : params)
            p[QString::fromStdString(name)] = value;
        o["params"] = p;
    }
    if (!view.empty()) o["view"] = QString::fromStdString(view);
    if (!bookmarks.empty()) {
        QJsonArray a;
        for (const ScenarioBookmark& b : bookmarks) {
            QJsonObject m{{"caption", QString::fromStdString(b.caption)}};
            if (!b.view.empty()) m["view"] = QString::fromStdString(b.view);
            if (b.event) m["event"] = static_cast<double>(*b.event);
            if (b.timeMs) m["timeMs"] = *b.timeMs;
            if (b.zoom) m["zoom"] = *b.zoom;
            if (b.docks) {
                QJsonArray d;
                for (const std::string& n : *b.docks)
                    d.append(QString::fromStdString(n));
                m["docks"] = d;
            }
            if (!b.points.empty()) {
                QJsonArray pts;
                for (const ScenarioPoint& p : b.points) {
                    QJsonObject po{{"policy", QString::fromStdString(p.policy)},
                                   {"copies", static_cast<double>(p.copies)}};
                    if (p.walkers) po["walkers"] = true;
                    pts.append(po);
                }
                m["points"] = pts;
            }
            a.append(m);
        }
        o["bookmarks"] = a;
    }
    if (!results.empty()) o["results"] = ScenarioResults::toJson(results);
    return QJsonDocument(o).toJson(QJsonDocument::Indented).toStdString();
}

void Scenario::save(const std::string& path) const {
    const std::string text = toJson();
    io::AtomicFile f(path);  // refuses a device, a FIFO or a directory
    if (!f.write(text) || !f.commit()) throw ScenarioError(path, 0, f.reason());
}

std::pair<std::string, std::string> Scenario::recipeText(const std::string& baseDir,
                                                         const std::string& scenarioFile) const {
    if (!recipePath.empty()) {
        const std::string path = resolvePath(recipePath, baseDir);
        return {readSmall(path, "recipe"), path};
    }
    return {recipeJson, scenarioFile + " (embedded recipe)"};
}

std::string Scenario::sourceSpec(const std::string& baseDir) const {
    return source.empty() ? kDefaultSource : resolveSpec(source, baseDir);
}

std::string Scenario::topologySpec(const std::string& baseDir) const {
    if (!topology.empty()) return resolveSpec(topology, baseDir);
    return source.empty() ? kDefaultTopology : "";
}

std::string Scenario::resolvePath(const std::string& path, const std::string& baseDir) {
    const QString p = QString::fromStdString(path);
    if (p.isEmpty() || QDir::isAbsolutePath(p)) return path;
    return QDir::cleanPath(QDir(QString::fromStdString(baseDir)).filePath(p)).toStdString();
}

std::string Scenario::resolveSpec(const std::string& spec, const std::string& baseDir) {
    // Only the kinds that name a file; host, live and synthetic specs stand alone.
    for (const char* kind : {"xml:", "maps:", "snapshot:", "trace:"}) {
        const std::string k = kind;
        if (spec.rfind(k, 0) == 0) return k + resolvePath(spec.substr(k.size()), baseDir);
    }
    return spec;
}

}  // namespace immap::session
