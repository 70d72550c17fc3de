#include "sim/RunCache.h"

#include "topology/Topology.h"

#include "io/AtomicFile.h"
#include "sim/ResultCodec.h"
#include "sim/RunKey.h"

#include <QCryptographicHash>
#include <algorithm>
#include <atomic>
#include <charconv>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;

namespace immap::sim {

namespace {

constexpr const char* kMagic = "immap-run-cache 1";
constexpr const char* kSuffix = ".run";
// Trim down to this share of the cap, so that a full cache is not trimmed on every store.
constexpr double kTrimTo = 0.9;

std::atomic<RunCache*> g_process{nullptr};

std::string sha256(std::string_view bytes) {
    return QCryptographicHash::hash(
               QByteArrayView(bytes.data(), static_cast<qsizetype>(bytes.size())),
               QCryptographicHash::Sha256)
        .toHex()
        .toStdString();
}

}  // namespace

RunCache::RunCache(std::string dir, std::uint64_t capBytes, int modelVersion)
    : dir_(std::move(dir)), cap_(capBytes), modelVersion_(modelVersion) {}

std::string RunCache::defaultDir() {
    if (const char* d = std::getenv("IMMAP_CACHE_DIR"); d && *d) return d;
    if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x && x[0] == '/')
        return std::string(x) + "/immap-lab/runs";
    if (const char* h = std::getenv("HOME"); h && *h)
        return std::string(h) + "/.cache/immap-lab/runs";
    return {};
}

std::uint64_t RunCache::capFromEnvironment() {
    const char* v = std::getenv("IMMAP_CACHE_MAX_MB");
    if (!v) return kDefaultCapBytes;
    const std::string_view s(v);
    std::uint64_t mb = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), mb);
    if (ec != std::errc() || end != s.data() + s.size() || mb < 1 || mb > (1ull << 40))
        return kDefaultCapBytes;
    return mb << 20;
}

std::unique_ptr<RunCache> RunCache::openDefault() {
    if (const char* off = std::getenv("IMMAP_NO_CACHE");
        off && std::string_view(off) != "" && std::string_view(off) != "0")
        return nullptr;
    const std::string dir = defaultDir();
    if (dir.empty()) return nullptr;
    return std::make_unique<RunCache>(dir, capFromEnvironment());
}

std::string RunCache::entryPath(const std::string& key) const {
    return dir_ + "/" + key + kSuffix;
}

std::string RunCache::entryText(const std::string& key, const SimResult& result) {
    const std::string body = ResultCodec::encode(result);
    return std::string(kMagic) + "\nkey " + key + "\nlength " + std::to_string(body.size()) +
           "\nsha256 " + sha256(body) + "\n\n" + body;
}

bool RunCache::parseEntry(const std::string& text, const std::string& key, SimResult& out,
                          std::string& error) {
    const std::size_t headerEnd = text.find("\n\n");
    if (headerEnd == std::string::npos) {
        error = "no header";
        return false;
    }
    std::istringstream header(text.substr(0, headerEnd));
    std::string magic, k, length, digest;
    std::getline(header, magic);
    if (magic != kMagic) {
        error = "not an entry of this format";
        return false;
    }
    std::getline(header, k);
    std::getline(header, length);
    std::getline(header, digest);
    if (k != "key " + key) {
        error = "the entry of another key";
        return false;
    }
    const std::string_view body = std::string_view(text).substr(headerEnd + 2);
    if (length != "length " + std::to_string(body.size())) {
        error = "torn: its length is not the one written";
        return false;
    }
    if (digest != "sha256 " + sha256(body)) {
        error = "corrupt: its checksum does not match";
        return false;
    }
    return ResultCodec::decode(body, out, error);
}

std::optional<SimResult> RunCache::readDisk(const std::string& key) {
    if (dir_.empty()) return std::nullopt;
    const std::string path = entryPath(key);
    std::ifstream in(path, std::ios::binary);
    if (!in) return std::nullopt;
    std::ostringstream s;
    s << in.rdbuf();
    SimResult r;
    std::string error;
    if (!parseEntry(s.str(), key, r, error)) {
        std::lock_guard lock(mutex_);
        ++counts_.rejected;
        return std::nullopt;  // the caller simulates and store() writes a good one over it
    }
    // A hit is a use: the mtime is the LRU clock.
    std::error_code ec;
    fs::last_write_time(path, fs::file_time_type::clock::now(), ec);
    return r;
}

std::optional<SimResult> RunCache::lookup(const std::string& key, Need need) {
    {
        std::lock_guard lock(mutex_);
        if (auto it = memory_.find(key);
            it != memory_.end() && (it->second.full || need == Need::Rate)) {
            ++counts_.memoryHits;
            return it->second.result;
        }
    }
    std::optional<SimResult> r = readDisk(key);
    if (r) {
        std::lock_guard lock(mutex_);
        ++counts_.diskHits;
    }
    return r;
}

void RunCache::store(const std::string& key, const SimResult& result) {
    if (dir_.empty()) {
        std::lock_guard lock(mutex_);
        memory_[key] = {result, true};
        return;
    }
    std::error_code ec;
    fs::create_directories(dir_, ec);
    const std::string text = entryText(key, result);
    std::string error;
    // A cache that cannot be written (a full disk, a read-only home) costs speed, not results.
    if (!io::AtomicFile::save(entryPath(key), text, error)) return;
    bool over = false;
    {
        std::lock_guard lock(mutex_);
        if (bytes_) {
            *bytes_ += text.size();
            over = *bytes_ > cap_;
        } else {
            over = true;  // not measured yet: trim() measures
        }
    }
    if (over) trim();
}

void RunCache::trim() {
    if (dir_.empty()) return;
    struct Entry {
        fs::path path;
        std::uint64_t size;
        fs::file_time_type used;
    };
    std::vector<Entry> entries;
    std::uint64_t total = 0;
    std::error_code ec;
    const auto now = fs::file_time_type::clock::now();
    for (fs::directory_iterator it(dir_, ec), end; !ec && it != end; it.increment(ec)) {
        const fs::path p = it->path();
        const std::string name = p.filename().string();
        std::error_code e2;
        const auto used = fs::last_write_time(p, e2);
        if (e2) continue;
        // A writer killed between its write and its rename leaves ".NAME.cache-XXXXXX".
        if (name.starts_with(".")) {
            if (now - used > std::chrono::seconds(kStaleTemporarySeconds)) fs::remove(p, e2);
            continue;
        }
        if (!name.ends_with(kSuffix)) continue;
        const std::uint64_t size = fs::file_size(p, e2);
        if (e2) continue;
        entries.push_back({p, size, used});
        total += size;
    }
    std::uint64_t evicted = 0;
    if (total > cap_) {
        std::sort(entries.begin(), entries.end(),
                  [](const Entry& a, const Entry& b) { return a.used < b.used; });
        const auto target = static_cast<std::uint64_t>(static_cast<double>(cap_) * kTrimTo);
        for (const Entry& e : entries) {
            if (total <= target) break;
            std::error_code e2;
            if (fs::remove(e.path, e2)) {
                total -= e.size;
                ++evicted;
            }
        }
    }
    std::lock_guard lock(mutex_);
    bytes_ = total;
    counts_.evicted += evicted;
}

SimResult RunCache::run(const SimConfig& config, Need need) {
    if (config.observer) return Simulator(config).run();
    const std::string key = RunKey::of(config, modelVersion_);
    std::optional<SimResult> r = lookup(key, need);
    // The same machine may be named by another path (RunKey keys its content): report it as
    // this run names it, as a fresh simulation would.
    if (r && config.topology) r->topology = config.topology->spec();
    if (!r) {
        {
            std::lock_guard lock(mutex_);
            ++counts_.misses;
        }
        r = Simulator(config).run();
        store(key, *r);
    }
    return std::move(*r);
}

void RunCache::preload(const std::string& key, SimResult result) {
    std::lock_guard lock(mutex_);
    memory_[key] = {std::move(result), true};
}

void RunCache::preloadRate(const std::string& key, double execsPerSecond) {
    SimResult r;
    r.execsPerSecond = execsPerSecond;
    std::lock_guard lock(mutex_);
    if (auto it = memory_.find(key); it != memory_.end() && it->second.full) return;
    memory_[key] = {std::move(r), false};
}

RunCache::Counts RunCache::counts() const {
    std::lock_guard lock(mutex_);
    return counts_;
}

RunCache* RunCache::process() {
    return g_process.load();
}

void RunCache::setProcess(RunCache* cache) {
    g_process.store(cache);
}

}  // namespace immap::sim
