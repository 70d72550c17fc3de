#pragma once
// --no-cache, the same on every command that runs the simulator, and the run cache it turns
// off (sim::RunCache, docs/cache.md).

#include <memory>

#include "CliCommand.h"
#include "sim/RunCache.h"

namespace immap::cli {

class CacheOption {
public:
    static void add(CliCommand& p);
    // RunCache::openDefault(), or null under --no-cache.
    static std::unique_ptr<sim::RunCache> open(const CliCommand& p);
    // " (N of them from the run cache)" or "".
    static std::string servedText(const sim::RunCache* cache);
};

}  // namespace immap::cli
