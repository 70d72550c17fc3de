#include "sim/SweepRow.h"

#include "io/CsvField.h"
#include "limits/InputLimits.h"
#include "mapping/Policy.h"
#include "sim/SingleRuns.h"
#include "sim/Sweep.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <algorithm>
#include <cmath>
#include <sstream>

namespace immap::sim {

SweepRow SweepRow::of(const SimResult& r) {
    SweepRow row;
    row.summary = QJsonDocument::fromJson(QByteArray::fromStdString(r.toJson(false))).object();
    row.policy = r.policy;
    row.copies = r.copies;
    row.walkersPerSecond = r.walkersPerSecond;
    row.execsPerSecond = r.execsPerSecond;
    row.seedRates = r.seedRates;
    row.bandRates = r.bandRates;
    row.seed = r.seed;
    row.walkerLatencyMeanNs = r.walkerLatencyMeanNs;
    row.walkerLatencyP99Ns = r.walkerLatencyP99Ns;
    row.memoryPerInodeBytes = static_cast<double>(r.memoryPerInodeBytes);
    row.maxUtilisation = Sweep::maxUtilisation(r);
    row.overload = r.overload;
    return row;
}

QJsonObject SweepRow::toJson() const {
    QJsonArray rates, bands;
    for (double v : seedRates)
        rates.append(v);
    for (double v : bandRates)
        bands.append(v);
    return {{"summary", summary},
            {"band_rates", bands},
            {"policy", QString::fromStdString(policy)},
            {"copies", static_cast<double>(copies)},
            {"walkers_per_s", walkersPerSecond},
            {"execs_per_s", execsPerSecond},
            {"seed_rates", rates},
            {"seed", QString::number(seed)},  // a string: JSON numbers lose 64-bit precision
            {"walker_latency_mean_ns", walkerLatencyMeanNs},
            {"walker_latency_p99_ns", walkerLatencyP99Ns},
            {"memory_per_inode_bytes", memoryPerInodeBytes},
            {"max_lock_utilisation", maxUtilisation}};
}

namespace {

// A number a run makes: finite and not negative.
bool rate(double v) {
    return std::isfinite(v) && v >= 0;
}

QJsonArray array(const std::vector<double>& v) {
    QJsonArray a;
    for (double x : v)
        a.append(x);
    return a;
}

}  // namespace

bool SweepRow::fromJson(const QJsonObject& o, SweepRow& out, std::string& error,
                        std::string* field) {
    auto fail = [&](const char* key, const std::string& why) {
        error = why;
        if (field) *field = key;
        return false;
    };
    for (const char* key :
         {"execs_per_s", "copies", "walkers_per_s", "walker_latency_mean_ns",
          "walker_latency_p99_ns", "memory_per_inode_bytes", "max_lock_utilisation"})
        if (!o[key].isDouble())
            return fail(key, std::string("a point's \"") + key + "\" is missing or not a number");
    for (const char* key : {"summary", "policy", "seed_rates", "seed"})
        if (!o.contains(key))
            return fail(key, "a point lacks its summary, policy, seed_rates or seed");
    if (!o["summary"].isObject()) return fail("summary", "a point's summary is not an object");
    if (!o["policy"].isString()) return fail("policy", "a point's policy is not a string");
    if (!o["seed_rates"].isArray())
        return fail("seed_rates", "a point's seed_rates is not an array");
    bool ok = false;
    out.seed = o["seed"].toString().toULongLong(&ok);
    if (!o["seed"].isString() || !ok)
        return fail("seed", "a point's seed is not a string of decimal digits below 2^64");
    // Every value is checked before it is used: the CSV casts memory to size_t, and a rate or
    // a share no run can make would be printed as a result.
    std::string range;
    const double copies = o["copies"].toDouble();
    if (!limits::InputLimits::check("copies", copies, range, "a point's copies") ||
        copies != std::floor(copies))
        return fail("copies", range.empty() ? "a point's copies is not a whole number" : range);
    out.policy = o["policy"].toString().toStdString();
    mapping::Policy policy;
    std::string why;
    if (!mapping::Policy::parse(out.policy, policy, why))
        return fail("policy", "a point's policy \"" + out.policy + "\" is unknown: " + why);
    out.copies = static_cast<unsigned>(copies);
    out.walkersPerSecond = o["walkers_per_s"].toDouble();
    if (!limits::InputLimits::check("walkers_per_s", out.walkersPerSecond, range,
                                    "a point's walkers_per_s"))
        return fail("walkers_per_s", range);
    out.execsPerSecond = o["execs_per_s"].toDouble();
    out.walkerLatencyMeanNs = o["walker_latency_mean_ns"].toDouble();
    out.walkerLatencyP99Ns = o["walker_latency_p99_ns"].toDouble();
    for (const auto& [key, v] : {std::pair{"execs_per_s", out.execsPerSecond},
                                 std::pair{"walker_latency_mean_ns", out.walkerLatencyMeanNs},
                                 std::pair{"walker_latency_p99_ns", out.walkerLatencyP99Ns}})
        if (!rate(v))
            return fail(key, std::string("a point's \"") + key + "\" is " +
                                 QString::number(v).toStdString() +
                                 "; it must be a finite number, not negative");
    out.memoryPerInodeBytes = o["memory_per_inode_bytes"].toDouble();
    // Whole bytes, exact in a double (2^53): what the CSV casts to size_t.
    if (!(out.memoryPerInodeBytes >= 0 && out.memoryPerInodeBytes <= 9007199254740992.0) ||
        out.memoryPerInodeBytes != std::floor(out.memoryPerInodeBytes))
        return fail("memory_per_inode_bytes",
                    "a point's \"memory_per_inode_bytes\" is " +
                        QString::number(out.memoryPerInodeBytes).toStdString() +
                        "; it must be a whole number of bytes from 0 to 2^53");
    out.maxUtilisation = o["max_lock_utilisation"].toDouble();
    // A lock is busy at most all of the time (Little's law holds the simulator to it); the
    // slack is rounding in busy time over the window.
    if (!(out.maxUtilisation >= 0 && out.maxUtilisation <= 1 + 1e-9))
        return fail("max_lock_utilisation", "a point's \"max_lock_utilisation\" is " +
                                                QString::number(out.maxUtilisation).toStdString() +
                                                "; it must be from 0 to 1");
    out.seedRates.clear();
    for (const QJsonValue v : o["seed_rates"].toArray()) {
        if (!v.isDouble() || !rate(v.toDouble()))
            return fail("seed_rates",
                        "a point's seed_rates holds something other than a rate (a finite "
                        "number, not negative)");
        out.seedRates.push_back(v.toDouble());
    }
    // Absent in parts written before bands: no band.
    out.bandRates.clear();
    if (o.contains("band_rates") && !o["band_rates"].isArray())
        return fail("band_rates", "a point's band_rates is not an array");
    for (const QJsonValue v : o["band_rates"].toArray()) {
        if (!v.isDouble() || !rate(v.toDouble()))
            return fail("band_rates",
                        "a point's band_rates holds something other than a rate (a finite "
                        "number, not negative)");
        out.bandRates.push_back(v.toDouble());
    }
    // The mean of the seeds is the point's rate (Sweep::run sums them in this order).
    if (!out.seedRates.empty()) {
        double sum = 0;
        for (double r : out.seedRates)
            sum += r;
        if (sum / static_cast<double>(out.seedRates.size()) != out.execsPerSecond)
            return fail("execs_per_s",
                        "a point's \"execs_per_s\" is not the mean of its seed_rates");
    }
    out.summary = o["summary"].toObject();
    out.overload = out.summary.value("overload").toString().toStdString();
    // The JSON output prints the summary and the CSV the fields: they must say the same.
    const QJsonObject& sum = out.summary;
    std::string differs;
    if (sum["policy"] != o["policy"])
        differs = "policy";
    else if (sum["copies"] != o["copies"])
        differs = "copies";
    else if (sum["seed"] != o["seed"])
        differs = "seed";
    else {
        for (const char* key : {"walkers_per_s", "execs_per_s", "walker_latency_mean_ns",
                                "walker_latency_p99_ns", "memory_per_inode_bytes"})
            if (sum[key] != o[key]) {
                differs = key;
                break;
            }
    }
    if (differs.empty()) {
        const bool seeds = !out.seedRates.empty(), bands = !out.bandRates.empty();
        if (sum.contains("execs_per_s_seeds") != seeds ||
            (seeds && (sum["execs_per_s_seeds"].toArray() != array(out.seedRates) ||
                       sum["execs_per_s_min"] !=
                           *std::min_element(out.seedRates.begin(), out.seedRates.end()) ||
                       sum["execs_per_s_max"] !=
                           *std::max_element(out.seedRates.begin(), out.seedRates.end()))))
            differs = "seed_rates";
        else if (sum.contains("execs_per_s_draws") != bands ||
                 (bands &&
                  (sum["execs_per_s_draws"].toArray() != array(out.bandRates) ||
                   sum["execs_per_s_band"].toObject() != Band::of(out.bandRates).toJson())))
            differs = "band_rates";
    }
    if (differs.empty()) {
        if (!sum["locks"].isArray()) differs = "max_lock_utilisation";
        double busiest = 0;
        for (const QJsonValue l : sum["locks"].toArray())
            busiest = std::max(busiest, l.toObject()["utilisation"].toDouble());
        if (busiest != out.maxUtilisation) differs = "max_lock_utilisation";
    }
    if (!differs.empty()) {
        const std::string key = differs;
        error = "a point's summary disagrees with its \"" + key +
                "\" (the JSON and the CSV of the merge would differ)";
        if (field) *field = "summary";
        return false;
    }
    return true;
}

std::string SweepRow::toJson(const std::vector<SweepRow>& rows) {
    const SingleRuns singles(rows);
    QJsonArray arr;
    for (const SweepRow& r : rows) {
        QJsonObject o = r.summary;
        o["speedup_vs_single"] = singles.speedup(r);
        o["max_lock_utilisation"] = r.maxUtilisation;
        if (const Band b = singles.band(r); b.valid) o["speedup_band"] = b.toJson();
        arr.append(o);
    }
    QJsonObject root;
    root["runs"] = arr;
    return QJsonDocument(root).toJson(QJsonDocument::Indented).toStdString();
}

std::string SweepRow::toCsv(const std::vector<SweepRow>& rows) {
    std::ostringstream out;
    out.precision(10);
    // walkers_per_s is last so that readers that take the older columns by position keep
    // working; with it, (policy, copies, walkers_per_s) names a point.
    out << "policy,copies,execs_per_s,speedup_vs_single,max_lock_utilisation,"
           "walker_latency_mean_ns,walker_latency_p99_ns,memory_per_inode_bytes,seed,"
           "seeds,execs_per_s_min,execs_per_s_max,walkers_per_s";
    const bool banded = std::any_of(rows.begin(), rows.end(),
                                    [](const SweepRow& r) { return !r.bandRates.empty(); });
    if (banded)
        out << ",execs_per_s_p10,execs_per_s_median,execs_per_s_p90,speedup_p10,speedup_median,"
               "speedup_p90";
    const bool overloaded = std::any_of(rows.begin(), rows.end(),
                                        [](const SweepRow& r) { return !r.overload.empty(); });
    if (overloaded) out << ",overload";
    out << '\n';
    const SingleRuns singles(rows);
    for (const SweepRow& r : rows) {
        const auto [lo, hi] =
            r.seedRates.empty()
                ? std::pair{r.execsPerSecond, r.execsPerSecond}
                : std::pair{*std::min_element(r.seedRates.begin(), r.seedRates.end()),
                            *std::max_element(r.seedRates.begin(), r.seedRates.end())};
        out << io::CsvField::of(r.policy) << ',' << r.copies << ',' << r.execsPerSecond << ','
            << singles.speedup(r) << ',' << r.maxUtilisation << ',' << r.walkerLatencyMeanNs << ','
            << r.walkerLatencyP99Ns << ',' << static_cast<std::size_t>(r.memoryPerInodeBytes) << ','
            << r.seed << ',' << std::max<std::size_t>(1, r.seedRates.size()) << ',' << lo << ','
            << hi << ',' << r.walkersPerSecond;
        if (banded) {
            const Band e = Band::of(r.bandRates), x = singles.band(r);
            out << ',' << e.p10 << ',' << e.median << ',' << e.p90 << ',' << x.p10 << ','
                << x.median << ',' << x.p90;
        }
        if (overloaded) out << ',' << io::CsvField::of(r.overload);
        out << '\n';
    }
    return out.str();
}

}  // namespace immap::sim
