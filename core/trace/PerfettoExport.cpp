#include "trace/PerfettoExport.h"

#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <unordered_map>

#include "io/AtomicFile.h"
#include "io/CsvField.h"
#include "io/OutputTarget.h"
#include "trace/TraceError.h"
#include "trace/TraceReader.h"
#include "trace/TraceReplay.h"

namespace immap::trace {

using sim::SimEvent;

namespace {

std::string jsonString(const std::string& s) {
    std::string out = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (static_cast<unsigned char>(c) < 0x20) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", c);
            out += buf;
        } else {
            out += c;
        }
    }
    return out + "\"";
}

class Sink {
public:
    // `input` is the trace read: written over, it would be lost.
    Sink(const std::string& path, const std::string& input) : path_(path) {
        if (const std::string why = io::OutputTarget::refusal(path, {input}); !why.empty())
            throw TraceError(path, 0, why);
        file_ = std::make_unique<io::AtomicFile>(path);
        if (!file_->ok()) throw TraceError(path, 0, file_->reason());
    }
    void write(const std::string& s) {
        buf_ += s;
        if (buf_.size() > (1 << 20)) flush();
    }
    void flush() {
        if (!file_->write(buf_)) throw TraceError(path_, 0, file_->reason());
        buf_.clear();
    }
    void commit() {
        flush();
        if (!file_->commit()) throw TraceError(path_, 0, file_->reason());
    }

private:
    std::string path_;
    std::unique_ptr<io::AtomicFile> file_;
    std::string buf_;
};

// Microseconds with nanosecond precision, as the trace-event format wants.
std::string us(std::int64_t ns) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%lld.%03lld", static_cast<long long>(ns / 1000),
                  static_cast<long long>(std::llabs(ns % 1000)));
    return buf;
}

}  // namespace

PerfettoSummary exportPerfetto(TraceReader& reader, const std::string& outPath) {
    const TraceHeader& h = reader.header();
    Sink out(outPath, reader.path());
    PerfettoSummary summary;
    out.write("{\"displayTimeUnit\":\"ns\",\"otherData\":{\"source\":" + jsonString(h.source) +
              ",\"policy\":" + jsonString(h.policy) + ",\"topology\":" + jsonString(h.topology) +
              "},\"traceEvents\":[\n");
    bool first = true;
    auto slice = [&](const std::string& name, const char* cat, int cpu, std::int64_t from,
                     std::int64_t to, const std::string& args) {
        if (!first) out.write(",\n");
        first = false;
        out.write("{\"name\":" + jsonString(name) + ",\"cat\":\"" + cat +
                  "\",\"ph\":\"X\",\"pid\":1,\"tid\":" + std::to_string(cpu) +
                  ",\"ts\":" + us(from) + ",\"dur\":" + us(std::max<std::int64_t>(0, to - from)) +
                  ",\"args\":{" + args + "}}");
        ++summary.slices;
    };
    // Open intervals per (agent, lock): waits and holds.
    std::map<std::pair<int, int>, std::int64_t> waits;
    std::map<std::pair<int, int>, std::pair<std::int64_t, int>> holds;  // start, mode
    std::unordered_map<int, std::int64_t> execs, walks;
    std::map<std::pair<int, std::uint64_t>, std::int64_t> kernelWaits;
    std::set<int> cpus;
    auto lockName = [&](int lock) { return h.locks[static_cast<std::size_t>(lock)].name; };
    SimEvent e;
    while (reader.next(e)) {
        if (e.cpu >= 0) cpus.insert(e.cpu);
        const std::string who = "\"agent\":" + std::to_string(e.agent);
        switch (e.kind) {
            case SimEvent::LockWait:
                waits[{e.agent, e.lock}] = e.time;
                break;
            case SimEvent::LockAcquire: {
                const auto w = waits.find({e.agent, e.lock});
                if (w != waits.end()) {
                    slice("wait " + lockName(e.lock), "wait", e.cpu, w->second, e.time, who);
                    waits.erase(w);
                }
                holds[{e.agent, e.lock}] = {e.time, e.mode};
                break;
            }
            case SimEvent::LockRelease: {
                const auto hd = holds.find({e.agent, e.lock});
                if (hd != holds.end()) {
                    slice(lockName(e.lock), "hold", e.cpu, hd->second.first, e.time,
                          who + ",\"mode\":\"" + (hd->second.second ? "read" : "write") + "\"");
                    holds.erase(hd);
                }
                break;
            }
            case SimEvent::ExecBegin:
                execs[e.agent] = e.time;
                break;
            case SimEvent::ExecEnd: {
                const auto x = execs.find(e.agent);
                if (x != execs.end()) slice("exec", "exec", e.cpu, x->second, e.time, who);
                break;
            }
            case SimEvent::WalkArrive:
                walks[e.agent] = e.time;
                break;
            case SimEvent::WalkEnd: {
                const auto x = walks.find(e.agent);
                if (x != walks.end())
                    slice("whole-file walk", "walk", e.cpu, x->second, e.time, who);
                break;
            }
            case SimEvent::KernelLockWait:
                kernelWaits[{e.agent, e.start}] = e.time;
                break;
            case SimEvent::KernelLockAcquired: {
                const auto x = kernelWaits.find({e.agent, e.start});
                if (x != kernelWaits.end()) {
                    char addr[32];
                    std::snprintf(addr, sizeof addr, "0x%llx",
                                  static_cast<unsigned long long>(e.start));
                    slice(std::string("contention ") + addr, "kernel", e.cpu, x->second, e.time,
                          who);
                    kernelWaits.erase(x);
                }
                break;
            }
            default:
                break;
        }
    }
    if (!reader.error().empty())
        throw TraceError(reader.path(), reader.errorLine(), reader.errorReason());
    for (int cpu : cpus) {
        out.write(
            ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":" + std::to_string(cpu) +
            ",\"args\":{\"name\":\"CPU " + std::to_string(cpu) + "\"}}");
        out.write(",\n{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":1,\"tid\":" +
                  std::to_string(cpu) + ",\"args\":{\"sort_index\":" + std::to_string(cpu) + "}}");
        ++summary.tracks;
    }
    out.write(",\n{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"args\":{\"name\":" +
              jsonString("immap-lab " + h.source + " (" + h.policy + ")") + "}}\n]}\n");
    out.commit();
    return summary;
}

void exportLockCsv(TraceReader& reader, const std::string& outPath) {
    TraceReplay replay(reader.header());
    sim::SimEvent e;
    std::string reason;
    while (reader.next(e))
        if (!replay.apply(e, reason)) throw TraceError(reader.path(), reader.line(), reason);
    if (!reader.error().empty())
        throw TraceError(reader.path(), reader.errorLine(), reader.errorReason());
    const sim::SimResult r = replay.result();
    std::ostringstream csv;
    csv.precision(10);
    csv << "lock,utilisation,arrivals_per_s,queue_mean,wait_mean_ns,wait_p50_ns,wait_p99_ns,hold_"
           "mean_ns,holds\n";
    for (const sim::LockResult& l : r.locks)
        csv << io::CsvField::of(l.name) << ',' << l.stats.utilisation << ','
            << l.stats.arrivalsPerSecond << ',' << l.stats.meanQueueLength << ','
            << l.stats.meanWait << ',' << l.stats.p50Wait << ',' << l.stats.p99Wait << ','
            << l.stats.meanHold << ',' << l.stats.holds << '\n';
    Sink out(outPath, reader.path());
    out.write(csv.str());
    out.commit();
}

}  // namespace immap::trace
