#include "CacheOption.h"

namespace immap::cli {

void CacheOption::add(CliCommand& p) {
    p.addOption({"no-cache",
                 "Simulate every run, neither reading nor writing the run cache. The cache "
                 "keeps each run's result under $XDG_CACHE_HOME/immap-lab/runs (or "
                 "$IMMAP_CACHE_DIR), keyed by everything that decides it, and answers the same "
                 "run again at once; at most 256 MiB ($IMMAP_CACHE_MAX_MB), the least recently "
                 "used runs removed past it. IMMAP_NO_CACHE=1 does what this does "
                 "(docs/cache.md)."});
}

std::unique_ptr<sim::RunCache> CacheOption::open(const CliCommand& p) {
    return p.isSet("no-cache") ? nullptr : sim::RunCache::openDefault();
}

std::string CacheOption::servedText(const sim::RunCache* cache) {
    if (!cache) return {};
    const sim::RunCache::Counts c = cache->counts();
    return " (" + std::to_string(c.memoryHits + c.diskHits) + " of them from the run cache)";
}

}  // namespace immap::cli
