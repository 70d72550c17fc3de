#pragma once
// Simulation results kept on disk (docs/cache.md): a run is deterministic given its SimConfig,
// so run(config) answers from an entry keyed by RunKey::of(config) when there is one, else
// simulates and stores. One file per key under the cache directory, written whole and renamed
// into place (io::AtomicFile), with its key, length and SHA-256 in a header: a torn, corrupt
// or foreign file is ignored and rewritten, never served. Two processes filling the same key
// write identical bytes, so whichever rename lands last changes nothing. Bounded: past the
// size cap the least recently used entries (by mtime, touched on every hit) are removed.
// An in-memory layer on top holds results handed over by a scenario (preload) and, when
// recording, every result served, for a scenario to carry. Thread-safe: sweeps call run()
// from their worker threads.

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "sim/ModelVersion.h"
#include "sim/Simulator.h"

namespace immap::sim {

class RunCache {
public:
    static constexpr std::uint64_t kDefaultCapBytes = 256ull << 20;
    // Temporaries of writers killed mid-entry older than this are removed by a trim.
    static constexpr int kStaleTemporarySeconds = 3600;

    // `dir` empty: the in-memory layer alone, which then keeps every result stored (unbounded:
    // for one sweep's bake and for tests). The directory is made on the first store.
    // `modelVersion`: kModelVersion but in tests of a bump.
    explicit RunCache(std::string dir, std::uint64_t capBytes = kDefaultCapBytes,
                      int modelVersion = kModelVersion);

    // $IMMAP_CACHE_DIR, else $XDG_CACHE_HOME/immap-lab/runs, else ~/.cache/immap-lab/runs.
    static std::string defaultDir();
    // $IMMAP_CACHE_MAX_MB in MiB when it is a whole number >= 1, else kDefaultCapBytes.
    static std::uint64_t capFromEnvironment();
    // The cache at defaultDir() with capFromEnvironment(); null when IMMAP_NO_CACHE is set to
    // anything but "" or "0" (what the test suite sets), or without a place for it.
    static std::unique_ptr<RunCache> openDefault();

    // What a caller reads of a result: all of it, or its execs/s alone (a sweep's parameter
    // draws), which a scenario can then carry in a few bytes.
    enum class Need { Full, Rate };

    // The cached result of `config`, or the simulator's (stored for next time). A config with
    // an observer is always simulated: its events are the point. Under Need::Rate the result
    // may hold execsPerSecond alone.
    SimResult run(const SimConfig& config, Need need = Need::Full);

    std::optional<SimResult> lookup(const std::string& key, Need need = Need::Full);
    void store(const std::string& key, const SimResult& result);
    // Into the in-memory layer only (a scenario's results); a rate serves Need::Rate alone.
    void preload(const std::string& key, SimResult result);
    void preloadRate(const std::string& key, double execsPerSecond);

    struct Counts {
        std::uint64_t memoryHits = 0;
        std::uint64_t diskHits = 0;
        std::uint64_t misses = 0;
        std::uint64_t rejected = 0;  // entries found but torn, corrupt or of another key
        std::uint64_t evicted = 0;
    };
    Counts counts() const;

    // Removes least recently used entries until the directory holds at most `capBytes`
    // (and stale temporaries); what the store does when past the cap.
    void trim();

    const std::string& dir() const { return dir_; }
    std::uint64_t capBytes() const { return cap_; }
    std::string entryPath(const std::string& key) const;

    // The whole entry file for `result` under `key`, and reading one back (false with the
    // reason: torn, corrupt, another key's).
    static std::string entryText(const std::string& key, const SimResult& result);
    static bool parseEntry(const std::string& text, const std::string& key, SimResult& out,
                           std::string& error);

    // The cache the app's controllers use (null: none, the default, so that tests and library
    // users simulate); set by main() unless --no-cache.
    static RunCache* process();
    static void setProcess(RunCache* cache);

private:
    std::optional<SimResult> readDisk(const std::string& key);

    std::string dir_;
    std::uint64_t cap_;
    int modelVersion_;
    mutable std::mutex mutex_;
    struct Held {
        SimResult result;
        bool full = true;
    };
    std::map<std::string, Held> memory_;
    Counts counts_;
    // Bytes this process believes the directory holds: measured at the first store, then
    // added to; a trim measures again.
    std::optional<std::uint64_t> bytes_;
};

}  // namespace immap::sim
