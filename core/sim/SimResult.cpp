#include "sim/SimResult.h"

#include "sim/Band.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <algorithm>

namespace immap::sim {

double SimResult::spinShare() const {
    double spin = 0, busy = 0;
    for (const CpuResult& c : cpus) {
        spin += c.spinNs;
        busy += c.workNs + c.holdNs + c.spinNs;
    }
    return busy > 0 ? spin / busy : 0;
}

std::string SimResult::toJson(bool detail) const {
    QJsonObject o;
    o["policy"] = QString::fromStdString(policy);
    o["topology"] = QString::fromStdString(topology);
    o["recipe"] = QString::fromStdString(recipe);
    o["copies"] = static_cast<double>(copies);
    o["seed"] = QString::number(seed);  // a string: JSON numbers lose 64-bit precision
    o["duration_ms"] = durationMs;
    o["warmup_ms"] = warmupMs;
    o["walkers_per_s"] = walkersPerSecond;
    o["execs_per_s"] = execsPerSecond;
    o["execs"] = static_cast<double>(execs);
    o["execs_per_copy_min"] = static_cast<double>(execsPerCopyMin);
    if (!overload.empty()) o["overload"] = QString::fromStdString(overload);
    if (!seedRates.empty()) {
        QJsonArray rates;
        for (double v : seedRates)
            rates.append(v);
        o["execs_per_s_seeds"] = rates;
        o["execs_per_s_min"] = *std::min_element(seedRates.begin(), seedRates.end());
        o["execs_per_s_max"] = *std::max_element(seedRates.begin(), seedRates.end());
    }
    if (!bandRates.empty()) {
        QJsonArray rates;
        for (double v : bandRates)
            rates.append(v);
        o["execs_per_s_draws"] = rates;
        o["execs_per_s_band"] = Band::of(bandRates).toJson();
    }
    QJsonArray ls;
    for (const LockResult& l : locks) {
        QJsonObject j;
        j["name"] = QString::fromStdString(l.name);
        j["utilisation"] = l.stats.utilisation;
        j["arrivals_per_s"] = l.stats.arrivalsPerSecond;
        j["queue_mean"] = l.stats.meanQueueLength;
        j["wait_mean_ns"] = l.stats.meanWait;
        j["wait_p50_ns"] = static_cast<double>(l.stats.p50Wait);
        j["wait_p99_ns"] = static_cast<double>(l.stats.p99Wait);
        j["hold_mean_ns"] = l.stats.meanHold;
        j["holds"] = static_cast<double>(l.stats.holds);
        ls.append(j);
    }
    o["locks"] = ls;
    o["walks"] = static_cast<double>(walks);
    o["walks_skipped"] = static_cast<double>(walksSkipped);
    o["walk_vmas_mean"] = walkVmasMean;
    o["walker_latency_mean_ns"] = walkerLatencyMeanNs;
    o["walker_latency_p99_ns"] = walkerLatencyP99Ns;
    o["memory_per_inode_bytes"] = static_cast<double>(memoryPerInodeBytes);
    o["link_bytes_per_vma"] = linkBytesPerVma;
    o["lock_holds"] = static_cast<double>(lockHolds);
    o["tree_ops"] = static_cast<double>(treeOps);
    o["nodes_per_tree_op"] = nodesPerTreeOp;
    o["cache_hits"] = static_cast<double>(cacheHits);
    o["cache_l1_hits"] = static_cast<double>(cacheL1Hits);
    o["cache_transfers"] = static_cast<double>(cacheTransfers);
    o["cache_memory_reads"] = static_cast<double>(cacheMemoryReads);
    o["cache_upgrades"] = static_cast<double>(cacheUpgrades);
    o["lock_line_transfers"] = static_cast<double>(lockLineTransfers);
    // The copies' time on each shared line besides i_mmap, per exec in the window.
    QJsonArray sl;
    for (const SharedLineResult& l : sharedLines) {
        QJsonObject j;
        j["name"] = QString::fromStdString(l.name);
        j["scope"] = QString::fromStdString(l.scope);
        j["touches_per_exec"] =
            execs ? static_cast<double>(l.touches) / static_cast<double>(execs) : 0.0;
        j["transfers_per_exec"] =
            execs ? static_cast<double>(l.transfers) / static_cast<double>(execs) : 0.0;
        j["ns_per_exec"] = execs ? l.delayNs / static_cast<double>(execs) : 0.0;
        sl.append(j);
    }
    o["shared_lines"] = sl;
    QJsonObject ps;
    for (const CostParams::Info& i : CostParams::table())
        ps[i.name] = params.*(i.field);
    o["params"] = ps;
    if (detail) {
        QJsonArray cs;
        for (const CpuResult& c : cpus) {
            QJsonObject j;
            j["cpu"] = static_cast<double>(c.cpu);
            j["node"] = c.node;
            j["copies"] = static_cast<double>(c.copies);
            j["work_ns"] = c.workNs;
            // No spin_ns: a replayed trace cannot tell spinning from sleeping, and the JSON is
            // what replays are checked against (spinShare() is the simulator's own figure).
            j["wait_ns"] = c.waitNs;
            j["hold_ns"] = c.holdNs;
            cs.append(j);
        }
        o["cpus"] = cs;
        QJsonArray fs;
        for (const FileResult& f : files) {
            QJsonObject j;
            j["name"] = QString::fromStdString(f.name);
            j["trees"] = static_cast<double>(f.trees);
            j["inserts"] = static_cast<double>(f.inserts);
            j["removes"] = static_cast<double>(f.removes);
            j["final_vmas"] = static_cast<double>(f.finalVmas);
            j["unlinked_vmas"] = static_cast<double>(f.unlinkedVmas);
            QJsonArray hs;
            for (int h : f.heights)
                hs.append(h);
            j["heights"] = hs;
            fs.append(j);
        }
        o["files"] = fs;
    }
    return QJsonDocument(o).toJson(QJsonDocument::Indented).toStdString();
}

}  // namespace immap::sim
