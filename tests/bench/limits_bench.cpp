// Benchmark, not a test: the limits of issue 8, each in a child process of its own so that its
// peak resident memory (VmHWM, minus the RSS the child started with) is its own:
//   snapshot: 10,000 process directories of generated maps files, loaded as snapshot:DIR,
//             every file's single tree built;
//   tree:     one maps file of 1,000,000 VMAs of one file, loaded as maps:FILE, its tree built;
//   trace:    a generated native trace of 10,000,000 events (docs/trace-format.md), streamed
//             through TraceReader and replayed by TraceReplay.
// Prints wall seconds and peak MiB, and MiB per million VMAs / events.
//   limits_bench [--quick]     (--quick: a hundredth of each, as CTest's smoke pass)
// Measured on the 2-core dev machine (GCC 12 Release, 2026-11-30), while other builds ran:
//   snapshot  150,000 VMAs (10,000 processes)  0.36 s   32.6 MiB peak
//   tree    1,000,000 VMAs in one tree         0.84 s  204.1 MiB peak (the 57 MB text included)
//   trace  10,000,000 events (245 MiB file)    2.09 s  101.4 MiB peak: the reader streams, the
//          replay keeps one node per VMA id ever seen (1.25 million here), not per event.
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>

#include "mapping/FileMapping.h"
#include "mapping/HostLoader.h"
#include "trace/TraceReader.h"
#include "trace/TraceReplay.h"

using namespace immap;
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

long statusKiB(const char* key) {
    std::ifstream in("/proc/self/status");
    std::string line;
    const std::size_t n = std::strlen(key);
    while (std::getline(in, line))
        if (line.compare(0, n, key) == 0) return std::stol(line.substr(n + 1));
    return -1;
}

// Runs `work` (which returns how many units it handled) in a child; prints the figures.
void measure(const char* name, const char* unit, const std::function<double()>& work) {
    std::fflush(stdout);
    const pid_t pid = ::fork();
    if (pid == 0) {
        const long base = statusKiB("VmRSS:");
        const auto t0 = Clock::now();
        const double units = work();
        const double s = std::chrono::duration<double>(Clock::now() - t0).count();
        const double peakMiB = static_cast<double>(statusKiB("VmHWM:") - base) / 1024.0;
        std::printf("%-9s %12.0f %-7s %7.2f s %9.1f MiB peak  %7.1f MiB per million %s\n", name,
                    units, unit, s, peakMiB, peakMiB / (units / 1e6), unit);
        std::fflush(stdout);
        ::_exit(0);
    }
    int status = 0;
    ::waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        std::printf("%-9s FAILED (status %d)\n", name, status);
}

// A process's maps: its executable, libc and ld (five VMAs each), heap, anonymous, stack, vdso.
std::string processMaps(unsigned pid) {
    std::string s;
    char line[160];
    unsigned long base = 0x7f0000000000UL + (static_cast<unsigned long>(pid) << 24);
    auto add = [&](const char* perms, unsigned long pages, unsigned long off, unsigned inode,
                   const char* path) {
        std::snprintf(line, sizeof line, "%lx-%lx %s %08lx fe:00 %u %s\n", base,
                      base + pages * 4096, perms, off * 4096, inode, path);
        s += line;
        base += pages * 4096;
    };
    const char* perms[] = {"r--p", "r-xp", "r--p", "r--p", "rw-p"};
    const unsigned long pages[] = {2, 5, 2, 1, 1};
    for (auto [inode, path] :
         {std::pair{248056u, "/usr/bin/sleep"},
          std::pair{332835u, "/usr/lib/x86_64-linux-gnu/libc.so.6"},
          std::pair{332826u, "/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2"}}) {
        unsigned long off = 0;
        for (int i = 0; i < 5; ++i) {
            add(perms[i], pages[i], off, inode, path);
            off += pages[i];
        }
    }
    add("rw-p", 33, 0, 0, "[heap]");
    add("rw-p", 4, 0, 0, "");
    add("rw-p", 33, 0, 0, "[stack]");
    add("r-xp", 2, 0, 0, "[vdso]");
    return s;
}

const std::string kTopology = "synthetic:numa:2 core:2 pu:1";

double treesOf(const mapping::LoadedHost& host) {
    double vmas = 0;
    for (const mapping::MappedFile& f : host.mappings.files()) {
        mapping::FileMapping m(f, *host.topology, mapping::Policy{});
        vmas += static_cast<double>(m.stats(0).vmas);
    }
    return vmas;
}

}  // namespace

int main(int argc, char** argv) {
    const bool quick = argc > 1 && !std::strcmp(argv[1], "--quick");
    const unsigned scale = quick ? 100 : 1;
    const fs::path dir =
        fs::temp_directory_path() / ("immap-limits-bench-" + std::to_string(::getpid()));
    fs::create_directories(dir);

    // 10,000 processes.
    const unsigned processes = 10000 / scale;
    const fs::path snap = dir / "snap";
    for (unsigned p = 1; p <= processes; ++p) {
        fs::create_directories(snap / std::to_string(p));
        std::ofstream(snap / std::to_string(p) / "maps") << processMaps(p);
    }
    measure("snapshot", "VMAs", [&] {
        const auto host = mapping::HostLoader::load("snapshot:" + snap.string(), kTopology);
        if (host.mappings.processes().size() != processes) ::_exit(1);
        return treesOf(host);
    });

    // 1,000,000 VMAs of one file in one maps file, so one tree of a million nodes.
    const unsigned long vmas = 1000000 / scale;
    const fs::path maps = dir / "maps";
    {
        std::ofstream out(maps);
        char line[128];
        for (unsigned long i = 0; i < vmas; ++i) {
            const unsigned long start = 0x100000000UL + i * 2 * 4096;
            std::snprintf(line, sizeof line, "%lx-%lx r--p %08lx fe:00 4242 /lib/big.so\n", start,
                          start + 4096, (i % 4096) * 4096);
            out << line;
        }
    }
    measure("tree", "VMAs", [&] {
        const auto host = mapping::HostLoader::load("maps:" + maps.string(), kTopology);
        return treesOf(host);
    });

    // 10,000,000 events: execs of 8 events each, inserting a VMA and removing the one inserted
    // 1,000 execs before, so the tree stays at 1,000 nodes while VMA ids keep growing.
    const unsigned long events = 10000000 / scale;
    const fs::path trace = dir / "run.trace";
    {
        std::ofstream out(trace);
        out << "immap-trace 2 {\"source\":\"simulate\",\"topology\":\"limits_bench\",\"policy\":"
               "\"single\",\"recipe\":\"generated\",\"copies\":64,\"seed\":\"1\","
               "\"duration_ms\":1000,\"walkers_per_s\":0,\"time_origin_ns\":\"0\",\"files\":"
               "[\"libc.so.6\"],\"trees_per_file\":1,\"locks\":[{\"name\":\"libc.so.6\","
               "\"file\":0}],\"walker_file\":0,\"params\":{}}\n";
        std::string buf;
        char line[128];
        unsigned long written = 0;
        for (unsigned long k = 0; written < events; ++k) {
            const unsigned long t = k * 100, a = k % 64, c = k % 4;
            auto put = [&](int n) {
                buf.append(line, static_cast<std::size_t>(n));
                ++written;
            };
            put(std::snprintf(line, sizeof line, "%lu eb %lu %lu\n", t, a, c));
            put(std::snprintf(line, sizeof line, "%lu la %lu %lu 0 w\n", t + 1, a, c));
            put(std::snprintf(line, sizeof line, "%lu ti %lu %lu 0 0 %lu %lu %lu 0\n", t + 2, a, c,
                              k, k * 8, k * 8 + 4));
            put(std::snprintf(line, sizeof line, "%lu lr %lu %lu 0\n", t + 3, a, c));
            put(std::snprintf(line, sizeof line, "%lu la %lu %lu 0 w\n", t + 4, a, c));
            if (k >= 1000)
                put(std::snprintf(line, sizeof line, "%lu tr %lu %lu 0 0 %lu %lu %lu 0\n", t + 5, a,
                                  c, k - 1000, (k - 1000) * 8, (k - 1000) * 8 + 4));
            put(std::snprintf(line, sizeof line, "%lu lr %lu %lu 0\n", t + 6, a, c));
            put(std::snprintf(line, sizeof line, "%lu ee %lu %lu\n", t + 7, a, c));
            if (buf.size() > (1u << 20)) {
                out << buf;
                buf.clear();
            }
        }
        out << buf << written * 100 << " en -1 -1 " << written << '\n';
    }
    std::printf("trace file: %.0f MiB\n", static_cast<double>(fs::file_size(trace)) / 1048576.0);
    measure("trace", "events", [&] {
        trace::TraceReader reader(trace.string());
        trace::TraceReplay replay(reader.header());
        sim::SimEvent e;
        std::string reason;
        while (reader.next(e))
            if (!replay.apply(e, reason)) {
                std::printf("replay: line %llu: %s\n",
                            static_cast<unsigned long long>(reader.line()), reason.c_str());
                ::_exit(1);
            }
        if (!reader.error().empty()) {
            std::printf("%s\n", reader.error().c_str());
            ::_exit(1);
        }
        return static_cast<double>(replay.events());
    });
    fs::remove_all(dir);
    return 0;
}
