#include "sim/SweepRow.h"

#include "io/CsvField.h"
#include "sim/Sweep.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <algorithm>
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

bool SweepRow::fromJson(const QJsonObject& o, SweepRow& out, std::string& error) {
    for (const char* key :
         {"execs_per_s", "copies", "walkers_per_s", "walker_latency_mean_ns",
          "walker_latency_p99_ns", "memory_per_inode_bytes", "max_lock_utilisation"})
        if (!o[key].isDouble()) {
            error = std::string("a point's \"") + key + "\" is missing or not a number";
            return false;
        }
    if (!o["summary"].isObject() || !o["policy"].isString() || !o["seed_rates"].isArray() ||
        !o["seed"].isString()) {
        error = "a point lacks its summary, policy, seed_rates or seed";
        return false;
    }
    bool ok = false;
    out.seed = o["seed"].toString().toULongLong(&ok);
    const double copies = o["copies"].toDouble();
    if (!ok || copies < 1 || copies > 1e9 || copies != static_cast<unsigned>(copies)) {
        error = "a point's seed or copy count is not a whole number";
        return false;
    }
    out.summary = o["summary"].toObject();
    out.overload = out.summary.value("overload").toString().toStdString();
    out.policy = o["policy"].toString().toStdString();
    out.copies = static_cast<unsigned>(copies);
    out.walkersPerSecond = o["walkers_per_s"].toDouble();
    out.execsPerSecond = o["execs_per_s"].toDouble();
    out.seedRates.clear();
    for (const QJsonValue v : o["seed_rates"].toArray()) {
        if (!v.isDouble()) {
            error = "a point's seed_rates holds something other than a number";
            return false;
        }
        out.seedRates.push_back(v.toDouble());
    }
    // Absent in parts written before bands: no band.
    out.bandRates.clear();
    if (o.contains("band_rates") && !o["band_rates"].isArray()) {
        error = "a point's band_rates is not an array";
        return false;
    }
    for (const QJsonValue v : o["band_rates"].toArray()) {
        if (!v.isDouble()) {
            error = "a point's band_rates holds something other than a number";
            return false;
        }
        out.bandRates.push_back(v.toDouble());
    }
    out.walkerLatencyMeanNs = o["walker_latency_mean_ns"].toDouble();
    out.walkerLatencyP99Ns = o["walker_latency_p99_ns"].toDouble();
    out.memoryPerInodeBytes = o["memory_per_inode_bytes"].toDouble();
    out.maxUtilisation = o["max_lock_utilisation"].toDouble();
    return true;
}

std::string SweepRow::toJson(const std::vector<SweepRow>& rows) {
    QJsonArray arr;
    for (const SweepRow& r : rows) {
        QJsonObject o = r.summary;
        o["speedup_vs_single"] = speedupOverSingle(rows, r);
        o["max_lock_utilisation"] = r.maxUtilisation;
        if (const Band b = speedupBand(rows, r); b.valid) o["speedup_band"] = b.toJson();
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
    for (const SweepRow& r : rows) {
        const auto [lo, hi] =
            r.seedRates.empty()
                ? std::pair{r.execsPerSecond, r.execsPerSecond}
                : std::pair{*std::min_element(r.seedRates.begin(), r.seedRates.end()),
                            *std::max_element(r.seedRates.begin(), r.seedRates.end())};
        out << io::CsvField::of(r.policy) << ',' << r.copies << ',' << r.execsPerSecond << ','
            << speedupOverSingle(rows, r) << ',' << r.maxUtilisation << ',' << r.walkerLatencyMeanNs
            << ',' << r.walkerLatencyP99Ns << ',' << static_cast<std::size_t>(r.memoryPerInodeBytes)
            << ',' << r.seed << ',' << std::max<std::size_t>(1, r.seedRates.size()) << ',' << lo
            << ',' << hi << ',' << r.walkersPerSecond;
        if (banded) {
            const Band e = Band::of(r.bandRates), x = speedupBand(rows, r);
            out << ',' << e.p10 << ',' << e.median << ',' << e.p90 << ',' << x.p10 << ','
                << x.median << ',' << x.p90;
        }
        if (overloaded) out << ',' << io::CsvField::of(r.overload);
        out << '\n';
    }
    return out.str();
}

}  // namespace immap::sim
