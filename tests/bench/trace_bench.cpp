// Benchmark, not a test: traces. Records a simulation (split-locks, 384 copies on the 12-node
// sample) to a temporary native trace, then times, in the same run: splitting the file into
// lines (the baseline), streaming it through TraceReader, and a full replay (trees rebuilt,
// lock statistics recomputed). Prints events per second (target: replay >= 5,000,000/s) and
// the ratios to the baseline. Then times importing the shipped bpftrace recording (target:
// under 1 s).
//   trace_bench [--quick]
#include <unistd.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "BenchPaths.h"
#include "BenchTrace.h"
#include "trace/BpftraceImport.h"
#include "trace/TraceCursor.h"
#include "trace/TraceReader.h"
#include "trace/TraceReplay.h"
#include "trace/TraceWriter.h"

using namespace immap;
using Clock = std::chrono::steady_clock;

namespace {

double secondsSince(Clock::time_point t0) {
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

// CPU time of this process: on a shared machine, what the work itself cost.
double cpuSeconds() {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

}  // namespace

int main(int argc, char** argv) {
    const bool quick = argc > 1 && !std::strcmp(argv[1], "--quick");
    const auto dir = std::filesystem::temp_directory_path() /
                     ("immap-trace-bench-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const std::string path = (dir / "run.trace").string();

    const std::string what = bench::recordBenchTrace(path, quick);
    const auto bytes = std::filesystem::file_size(path);

    // Baseline: the bytes, read and split into lines.
    auto t0 = Clock::now();
    std::uint64_t lines = 0;
    {
        std::FILE* f = std::fopen(path.c_str(), "rb");
        std::string buf(1 << 20, '\0');
        std::size_t n;
        while ((n = std::fread(buf.data(), 1, buf.size(), f)) > 0)
            for (const char* p = buf.data();
                 (p = static_cast<const char*>(
                      std::memchr(p, '\n', n - static_cast<std::size_t>(p - buf.data()))));
                 ++p)
                ++lines;
        std::fclose(f);
    }
    const double split = secondsSince(t0);

    t0 = Clock::now();
    std::uint64_t events = 0;
    {
        trace::TraceReader r(path);
        sim::SimEvent e;
        while (r.next(e))
            ++events;
    }
    const double read = secondsSince(t0);

    t0 = Clock::now();
    const double cpu0 = cpuSeconds();
    {
        trace::TraceReader r(path);
        trace::TraceReplay replay(r.header());
        sim::SimEvent e;
        std::string reason;
        while (r.next(e))
            if (!replay.apply(e, reason)) {
                std::fprintf(stderr, "replay failed: %s\n", reason.c_str());
                return 1;
            }
        replay.result();
    }
    const double replay = secondsSince(t0);
    const double replayCpu = cpuSeconds() - cpu0;

    std::printf("trace: %llu events, %.1f MB (%s)\n", static_cast<unsigned long long>(events),
                static_cast<double>(bytes) / 1e6, what.c_str());
    std::printf("split into lines %8.3f s  %6.1f M lines/s  (baseline)\n", split,
                static_cast<double>(lines) / split / 1e6);
    std::printf("read and parse   %8.3f s  %6.1f M events/s  ratio %.2f\n", read,
                static_cast<double>(events) / read / 1e6, split / read);
    std::printf(
        "full replay      %8.3f s  %6.1f M events/s  ratio %.2f  (target >= 5 M events/s)\n",
        replay, static_cast<double>(events) / replay / 1e6, split / replay);
    std::printf(
        "full replay, CPU time of this process: %.3f s = %.1f M events/s (what a quiet machine "
        "gives)\n",
        replayCpu, static_cast<double>(events) / replayCpu / 1e6);

    // Scrubbing: index the trace once, then seek to random events.
    t0 = Clock::now();
    trace::TraceCursor cursor(path);
    const double index = secondsSince(t0);
    std::vector<double> seeks;
    std::uint64_t x = 12345;
    for (int i = 0; i < (quick ? 5 : 50); ++i) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        const std::uint64_t target = (x >> 11) % (cursor.events() + 1);
        const auto s0 = Clock::now();
        cursor.seek(target);
        seeks.push_back(secondsSince(s0) * 1e3);
    }
    std::sort(seeks.begin(), seeks.end());
    std::printf(
        "seek: index %.2f s (%zu checkpoints), %zu random seeks: median %.1f ms, max %.1f ms "
        "(target < 100 ms)\n",
        index, cursor.checkpoints(), seeks.size(), seeks[seeks.size() / 2], seeks.back());

    // Import of the shipped recording, best of three.
    double best = 1e9;
    trace::ImportSummary s;
    for (int i = 0; i < 3; ++i) {
        t0 = Clock::now();
        s = trace::BpftraceImport::run(
            immap::bench::samplesDir() + "/traces/trace-execl-2x500.bt.txt",
            (dir / "import.trace").string());
        best = std::min(best, secondsSince(t0));
    }
    std::printf(
        "import of samples/traces/trace-execl-2x500.bt.txt: %.3f s (best of 3; target < 1 s), %llu "
        "lines -> %llu events\n",
        best, static_cast<unsigned long long>(s.lines), static_cast<unsigned long long>(s.events));
    std::filesystem::remove_all(dir);
    return 0;
}
