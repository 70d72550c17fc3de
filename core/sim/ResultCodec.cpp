#include "sim/ResultCodec.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <charconv>
#include <cmath>
#include <stdexcept>

namespace immap::sim {

namespace {

// Numbers JSON holds exactly (Qt writes doubles in their shortest round-trip form) stay
// numbers; the rest (counts past 2^53, infinities, NaN) are strings in the shortest form that
// reads back to the same bits.
constexpr double kExactInteger = 9007199254740992.0;  // 2^53

template <typename T>
QJsonValue num(T v) {
    if constexpr (std::is_floating_point_v<T>) {
        if (std::isfinite(v)) return static_cast<double>(v);
    } else {
        if (static_cast<double>(v) < kExactInteger && static_cast<double>(v) > -kExactInteger)
            return static_cast<double>(v);
    }
    char buf[64];
    const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
    (void)ec;
    return QString::fromLatin1(buf, static_cast<int>(end - buf));
}

QJsonValue str(const std::string& s) {
    return QString::fromStdString(s);
}

// Reading throws this with the field's name; fromJson turns it into its error.
struct Bad : std::runtime_error {
    using std::runtime_error::runtime_error;
};

template <typename T>
void get(const QJsonValue& v, T& out, const char* name) {
    if (v.isDouble()) {
        const double d = v.toDouble();
        if constexpr (std::is_floating_point_v<T>) {
            out = d;
            return;
        } else {
            if (d == std::floor(d) && d >= static_cast<double>(std::numeric_limits<T>::min()) &&
                d <= static_cast<double>(std::numeric_limits<T>::max())) {
                out = static_cast<T>(d);
                return;
            }
        }
    } else if (v.isString()) {
        const std::string s = v.toString().toStdString();
        const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
        if (ec == std::errc() && end == s.data() + s.size() && !s.empty()) return;
    }
    throw Bad(std::string(name) + " is not a number of its type");
}

void get(const QJsonValue& v, std::string& out, const char* name) {
    if (!v.isString()) throw Bad(std::string(name) + " is not a string");
    out = v.toString().toStdString();
}

QJsonArray array(const QJsonValue& v, const char* name) {
    if (!v.isArray()) throw Bad(std::string(name) + " is not an array");
    return v.toArray();
}

QJsonObject object(const QJsonValue& v, const char* name) {
    if (!v.isObject()) throw Bad(std::string(name) + " is not an object");
    return v.toObject();
}

QJsonArray numbers(const std::vector<double>& values) {
    QJsonArray a;
    for (double v : values)
        a.append(num(v));
    return a;
}

template <typename T>
void getAll(const QJsonValue& v, std::vector<T>& out, const char* name) {
    out.clear();
    for (const QJsonValue& e : array(v, name)) {
        T x{};
        get(e, x, name);
        out.push_back(x);
    }
}

QJsonArray statsJson(const RwSemModel::Stats& s) {
    const auto& [windowStart, window, utilisation, arrivals, arrivalsPerSecond, meanQueueLength,
                 maxQueueLength, grants, immediateGrants, meanWait, p50Wait, p99Wait, maxWait,
                 holds, meanHold] = s;
    return {num(windowStart),       num(window),          num(utilisation),    num(arrivals),
            num(arrivalsPerSecond), num(meanQueueLength), num(maxQueueLength), num(grants),
            num(immediateGrants),   num(meanWait),        num(p50Wait),        num(p99Wait),
            num(maxWait),           num(holds),           num(meanHold)};
}

void statsFrom(const QJsonValue& v, RwSemModel::Stats& s) {
    const QJsonArray a = array(v, "lock stats");
    if (a.size() != 15) throw Bad("lock stats do not have 15 numbers");
    auto& [windowStart, window, utilisation, arrivals, arrivalsPerSecond, meanQueueLength,
           maxQueueLength, grants, immediateGrants, meanWait, p50Wait, p99Wait, maxWait, holds,
           meanHold] = s;
    get(a[0], windowStart, "window_start");
    get(a[1], window, "window");
    get(a[2], utilisation, "utilisation");
    get(a[3], arrivals, "arrivals");
    get(a[4], arrivalsPerSecond, "arrivals_per_s");
    get(a[5], meanQueueLength, "queue_mean");
    get(a[6], maxQueueLength, "queue_max");
    get(a[7], grants, "grants");
    get(a[8], immediateGrants, "immediate_grants");
    get(a[9], meanWait, "wait_mean");
    get(a[10], p50Wait, "wait_p50");
    get(a[11], p99Wait, "wait_p99");
    get(a[12], maxWait, "wait_max");
    get(a[13], holds, "holds");
    get(a[14], meanHold, "hold_mean");
}

constexpr int kFormat = 1;

}  // namespace

QJsonObject ResultCodec::toJson(const SimResult& r) {
    // Every field, by the structured binding: a new one is a compile error until it is coded.
    const auto& [policy, topology, recipe, copies, seed, durationMs, warmupMs, walkersPerSecond,
                 execsPerSecond, seedRates, bandRates, overload, execs, execsPerCopyMin, locks,
                 cpus, files, walks, walksSkipped, walkVmasMean, walkerLatencyMeanNs,
                 walkerLatencyP99Ns, memoryPerInodeBytes, linkBytesPerVma, lockHolds, treeOps,
                 nodesPerTreeOp, cacheHits, cacheL1Hits, cacheTransfers, cacheMemoryReads,
                 cacheUpgrades, lockLineTransfers, events, sharedLines, params] = r;
    QJsonObject o;
    o["format"] = kFormat;
    o["policy"] = str(policy);
    o["topology"] = str(topology);
    o["recipe"] = str(recipe);
    o["copies"] = num(copies);
    o["seed"] = QString::number(seed);
    o["duration_ms"] = num(durationMs);
    o["warmup_ms"] = num(warmupMs);
    o["walkers_per_s"] = num(walkersPerSecond);
    o["execs_per_s"] = num(execsPerSecond);
    o["seed_rates"] = numbers(seedRates);
    o["band_rates"] = numbers(bandRates);
    o["overload"] = str(overload);
    o["execs"] = num(execs);
    o["execs_per_copy_min"] = num(execsPerCopyMin);
    QJsonArray ls;
    for (const LockResult& l : locks) {
        const auto& [name, file, stats, lineTransfers] = l;
        ls.append(QJsonArray{str(name), num(file), statsJson(stats), num(lineTransfers)});
    }
    o["locks"] = ls;
    // A row per CPU, unnamed: a 384-CPU run has 384 of them.
    QJsonArray cs;
    for (const CpuResult& c : cpus) {
        const auto& [cpu, node, n, workNs, waitNs, holdNs, spinNs] = c;
        cs.append(QJsonArray{num(cpu), num(node), num(n), num(workNs), num(waitNs), num(holdNs),
                             num(spinNs)});
    }
    o["cpus"] = cs;
    QJsonArray fs;
    for (const FileResult& f : files) {
        const auto& [name, trees, inserts, removes, finalVmas, heights, unlinkedVmas] = f;
        QJsonArray hs;
        for (int h : heights)
            hs.append(h);
        fs.append(QJsonArray{str(name), num(trees), num(inserts), num(removes), num(finalVmas), hs,
                             num(unlinkedVmas)});
    }
    o["files"] = fs;
    o["walks"] = num(walks);
    o["walks_skipped"] = num(walksSkipped);
    o["walk_vmas_mean"] = num(walkVmasMean);
    o["walker_latency_mean_ns"] = num(walkerLatencyMeanNs);
    o["walker_latency_p99_ns"] = num(walkerLatencyP99Ns);
    o["memory_per_inode_bytes"] = num(memoryPerInodeBytes);
    o["link_bytes_per_vma"] = num(linkBytesPerVma);
    o["lock_holds"] = num(lockHolds);
    o["tree_ops"] = num(treeOps);
    o["nodes_per_tree_op"] = num(nodesPerTreeOp);
    o["cache_hits"] = num(cacheHits);
    o["cache_l1_hits"] = num(cacheL1Hits);
    o["cache_transfers"] = num(cacheTransfers);
    o["cache_memory_reads"] = num(cacheMemoryReads);
    o["cache_upgrades"] = num(cacheUpgrades);
    o["lock_line_transfers"] = num(lockLineTransfers);
    o["events"] = num(events);
    QJsonArray sl;
    for (const SharedLineResult& l : sharedLines) {
        const auto& [name, scope, touches, transfers, delayNs] = l;
        sl.append(QJsonArray{str(name), str(scope), num(touches), num(transfers), num(delayNs)});
    }
    o["shared_lines"] = sl;
    QJsonObject ps;
    for (const CostParams::Info& i : CostParams::table())
        ps[i.name] = num(params.*(i.field));
    o["params"] = ps;
    return o;
}

bool ResultCodec::fromJson(const QJsonObject& o, SimResult& out, std::string& error) {
    try {
        if (o.value("format").toInt(-1) != kFormat) throw Bad("not a result of format 1");
        SimResult r;
        auto& [policy, topology, recipe, copies, seed, durationMs, warmupMs, walkersPerSecond,
               execsPerSecond, seedRates, bandRates, overload, execs, execsPerCopyMin, locks, cpus,
               files, walks, walksSkipped, walkVmasMean, walkerLatencyMeanNs, walkerLatencyP99Ns,
               memoryPerInodeBytes, linkBytesPerVma, lockHolds, treeOps, nodesPerTreeOp, cacheHits,
               cacheL1Hits, cacheTransfers, cacheMemoryReads, cacheUpgrades, lockLineTransfers,
               events, sharedLines, params] = r;
        get(o["policy"], policy, "policy");
        get(o["topology"], topology, "topology");
        get(o["recipe"], recipe, "recipe");
        get(o["copies"], copies, "copies");
        get(o["seed"], seed, "seed");
        get(o["duration_ms"], durationMs, "duration_ms");
        get(o["warmup_ms"], warmupMs, "warmup_ms");
        get(o["walkers_per_s"], walkersPerSecond, "walkers_per_s");
        get(o["execs_per_s"], execsPerSecond, "execs_per_s");
        getAll(o["seed_rates"], seedRates, "seed_rates");
        getAll(o["band_rates"], bandRates, "band_rates");
        get(o["overload"], overload, "overload");
        get(o["execs"], execs, "execs");
        get(o["execs_per_copy_min"], execsPerCopyMin, "execs_per_copy_min");
        for (const QJsonValue& v : array(o["locks"], "locks")) {
            const QJsonArray a = array(v, "a lock");
            if (a.size() != 4) throw Bad("a lock does not have 4 entries");
            LockResult l;
            get(a[0], l.name, "lock name");
            get(a[1], l.file, "lock file");
            statsFrom(a[2], l.stats);
            get(a[3], l.lineTransfers, "lock line transfers");
            locks.push_back(std::move(l));
        }
        for (const QJsonValue& v : array(o["cpus"], "cpus")) {
            const QJsonArray a = array(v, "a cpu");
            if (a.size() != 7) throw Bad("a cpu does not have 7 numbers");
            CpuResult c;
            get(a[0], c.cpu, "cpu");
            get(a[1], c.node, "cpu node");
            get(a[2], c.copies, "cpu copies");
            get(a[3], c.workNs, "cpu work");
            get(a[4], c.waitNs, "cpu wait");
            get(a[5], c.holdNs, "cpu hold");
            get(a[6], c.spinNs, "cpu spin");
            cpus.push_back(c);
        }
        for (const QJsonValue& v : array(o["files"], "files")) {
            const QJsonArray a = array(v, "a file");
            if (a.size() != 7) throw Bad("a file does not have 7 entries");
            FileResult f;
            get(a[0], f.name, "file name");
            get(a[1], f.trees, "file trees");
            get(a[2], f.inserts, "file inserts");
            get(a[3], f.removes, "file removes");
            get(a[4], f.finalVmas, "file final VMAs");
            getAll(a[5], f.heights, "file heights");
            get(a[6], f.unlinkedVmas, "file unlinked VMAs");
            files.push_back(std::move(f));
        }
        get(o["walks"], walks, "walks");
        get(o["walks_skipped"], walksSkipped, "walks_skipped");
        get(o["walk_vmas_mean"], walkVmasMean, "walk_vmas_mean");
        get(o["walker_latency_mean_ns"], walkerLatencyMeanNs, "walker_latency_mean_ns");
        get(o["walker_latency_p99_ns"], walkerLatencyP99Ns, "walker_latency_p99_ns");
        get(o["memory_per_inode_bytes"], memoryPerInodeBytes, "memory_per_inode_bytes");
        get(o["link_bytes_per_vma"], linkBytesPerVma, "link_bytes_per_vma");
        get(o["lock_holds"], lockHolds, "lock_holds");
        get(o["tree_ops"], treeOps, "tree_ops");
        get(o["nodes_per_tree_op"], nodesPerTreeOp, "nodes_per_tree_op");
        get(o["cache_hits"], cacheHits, "cache_hits");
        get(o["cache_l1_hits"], cacheL1Hits, "cache_l1_hits");
        get(o["cache_transfers"], cacheTransfers, "cache_transfers");
        get(o["cache_memory_reads"], cacheMemoryReads, "cache_memory_reads");
        get(o["cache_upgrades"], cacheUpgrades, "cache_upgrades");
        get(o["lock_line_transfers"], lockLineTransfers, "lock_line_transfers");
        get(o["events"], events, "events");
        for (const QJsonValue& v : array(o["shared_lines"], "shared_lines")) {
            const QJsonArray a = array(v, "a shared line");
            if (a.size() != 5) throw Bad("a shared line does not have 5 entries");
            SharedLineResult l;
            get(a[0], l.name, "shared line name");
            get(a[1], l.scope, "shared line scope");
            get(a[2], l.touches, "shared line touches");
            get(a[3], l.transfers, "shared line transfers");
            get(a[4], l.delayNs, "shared line delay");
            sharedLines.push_back(std::move(l));
        }
        const QJsonObject ps = object(o["params"], "params");
        if (static_cast<std::size_t>(ps.size()) != CostParams::table().size())
            throw Bad("params do not name every parameter");
        for (const CostParams::Info& i : CostParams::table())
            get(ps[i.name], params.*(i.field), i.name);
        out = std::move(r);
        return true;
    } catch (const Bad& e) {
        error = e.what();
        return false;
    }
}

std::string ResultCodec::encode(const SimResult& result) {
    return QJsonDocument(toJson(result)).toJson(QJsonDocument::Compact).toStdString();
}

bool ResultCodec::decode(std::string_view text, SimResult& out, std::string& error) {
    QJsonParseError pe;
    const QJsonDocument doc =
        QJsonDocument::fromJson(QByteArray(text.data(), static_cast<qsizetype>(text.size())), &pe);
    if (pe.error != QJsonParseError::NoError || !doc.isObject()) {
        error = "not a JSON object";
        return false;
    }
    return fromJson(doc.object(), out, error);
}

}  // namespace immap::sim
