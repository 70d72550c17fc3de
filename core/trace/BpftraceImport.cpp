#include "trace/BpftraceImport.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <memory>
#include <sstream>
#include <unordered_map>
#include <vector>

#include "io/CutLine.h"
#include "io/InputFile.h"
#include "io/OutputTarget.h"
#include "sim/AddressSpace.h"
#include "sim/Recipe.h"
#include "trace/TraceError.h"
#include "trace/TraceEvent.h"
#include "trace/TraceWriter.h"

namespace immap::trace {

using sim::SimEvent;

namespace {

constexpr std::uint64_t kPage = 4096;
constexpr std::uint64_t kMapFixed = 0x10;
// Where the inferred kernel mappings go: the usual x86-64 places for a PIE and for ld.so.
constexpr std::uint64_t kExeBasePage = 0x555555554000ULL / kPage;
constexpr std::uint64_t kLdBasePage = 0x7ffff7fc3000ULL / kPage;
constexpr const char* kLdPath = "/lib64/ld-linux-x86-64.so.2";
// Every line is kept in memory while the events are sorted, at a few hundred bytes each: this
// bounds that (the shipped recording of 1,000 execs is well under 1 MiB).
constexpr std::uint64_t kMaxRecordingBytes = std::uint64_t{256} << 20;

struct Line {
    std::int64_t t = 0;
    int cpu = 0;
    std::int32_t pid = 0;
    std::string event;
    std::map<std::string, std::string, std::less<>> args;
    std::uint64_t number = 0;  // line number in the file, for messages
};

bool isEvent(const std::string& s) {
    return s == "exec" || s == "open" || s == "mmap" || s == "munmap" || s == "exit_mmap" ||
           s == "lock_wait" || s == "lock_acquired";
}

template <class T>
bool number(const std::string& s, T& out, int base = 10) {
    const char* b = s.data();
    const char* e = s.data() + s.size();
    if (base == 16 && s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) b += 2;
    const auto r = std::from_chars(b, e, out, base);
    return r.ec == std::errc() && r.ptr == e && b != e;
}

class Importer {
public:
    Importer(const std::string& in, const std::string& out) : in_(in), writer_(out) {}

    ImportSummary run() {
        std::vector<Line> lines = read();
        std::stable_sort(lines.begin(), lines.end(),
                         [](const Line& a, const Line& b) { return a.t < b.t; });
        origin_ = lines.empty() ? 0 : lines.front().t;
        for (const Line& l : lines)
            apply(l);
        // A trace without files is one its own reader refuses: say so here, about the input.
        if (files_.empty())
            fail(0, "the recording maps no file: nothing to import (" +
                        std::to_string(lines.size()) + " event lines)");
        summary_.lines = lines.size();
        summary_.processes = procs_.size();
        summary_.files = files_.size();
        TraceHeader h;
        h.source = "import:" + in_;
        h.topology = "unknown (the recording does not say)";
        h.policy = "single";
        h.recipe = "recorded";
        h.copies = static_cast<unsigned>(procs_.size());
        h.timeOriginNs = origin_;
        h.files = files_;
        for (std::size_t i = 0; i < files_.size(); ++i)
            h.locks.push_back({files_[i], static_cast<int>(i)});
        h.note =
            "Agents are pids. Lock holds and tree operations follow from the recorded calls; those "
            "of "
            "the executable and ld.so inside execve are inferred (marked *) from the built-in "
            "recipe's "
            "layouts. mprotect was not recorded, so RELRO splits are missing.";
        writer_.start(h);
        writer_.close();
        summary_.events = writer_.events();
        return summary_;
    }

private:
    struct Proc {
        std::unordered_map<std::int64_t, std::string> fds;
        std::unique_ptr<sim::AddressSpace> as;
    };

    [[noreturn]] void fail(std::uint64_t line, const std::string& reason) const {
        throw TraceError(in_, line, reason);
    }

    std::vector<Line> read() {
        std::string all =
            io::InputFile::read<TraceError>(in_, kMaxRecordingBytes, "a bpftrace recording");
        const bool cut = io::CutLine::cut(all);
        std::istringstream f(std::move(all));
        std::vector<Line> out;
        std::string text;
        std::uint64_t n = 0;
        while (std::getline(f, text)) {
            ++n;
            if (!text.empty() && text.back() == '\r') text.pop_back();
            if (text.empty() || text[0] == '#' || text.rfind("Attaching ", 0) == 0) continue;
            if (text.size() > 65536) fail(n, "line longer than 64 KB");
            std::istringstream words(text);
            std::vector<std::string> w;
            for (std::string x; words >> x;)
                w.push_back(x);
            Line l;
            l.number = n;
            if (w.size() < 5 || !number(w[0], l.t) || !number(w[1], l.cpu) || !number(w[2], l.pid))
                fail(n, "expected \"t_ns cpu pid comm event key=value...\"");
            // bpftrace's nsecs count from boot; bounded, differences of them cannot overflow and
            // the trace written stays one its reader accepts.
            if (l.t < 0 || l.t > kMaxEventTime)
                fail(n, "time " + w[0] + " ns is outside 0.." + std::to_string(kMaxEventTime));
            // comm may hold spaces: the event is the first known name after the pid that only
            // key=value words follow.
            std::size_t ev = 0;
            for (std::size_t i = 4; i < w.size() && !ev; ++i) {
                if (!isEvent(w[i])) continue;
                bool rest = true;
                for (std::size_t j = i + 1; j < w.size(); ++j)
                    rest = rest && w[j].find('=') != std::string::npos;
                if (rest) ev = i;
            }
            if (!ev)
                fail(n,
                     "no known event (exec, open, mmap, munmap, exit_mmap, lock_wait, "
                     "lock_acquired)");
            l.event = w[ev];
            for (std::size_t j = ev + 1; j < w.size(); ++j) {
                const std::size_t eq = w[j].find('=');
                l.args[w[j].substr(0, eq)] = w[j].substr(eq + 1);
            }
            out.push_back(std::move(l));
        }
        if (f.bad()) fail(n, "read error");
        if (cut) summary_.warnings.push_back(io::CutLine::message(in_, n));
        return out;
    }

    const std::string& arg(const Line& l, const char* key) const {
        const auto it = l.args.find(key);
        if (it == l.args.end()) fail(l.number, std::string(l.event) + " without " + key + "=");
        return it->second;
    }
    std::uint64_t hexArg(const Line& l, const char* key) const {
        std::uint64_t v = 0;
        if (!number(arg(l, key), v, 16))
            fail(l.number, std::string(key) + "= is not a hex number: " + arg(l, key));
        return v;
    }
    std::int64_t decArg(const Line& l, const char* key) const {
        std::int64_t v = 0;
        if (!number(arg(l, key), v))
            fail(l.number, std::string(key) + "= is not a number: " + arg(l, key));
        return v;
    }

    int fileIndex(const std::string& path) {
        const auto it = fileIndex_.find(path);
        if (it != fileIndex_.end()) return it->second;
        files_.push_back(path);
        return fileIndex_[path] = static_cast<int>(files_.size() - 1);
    }

    Proc& proc(std::int32_t pid) {
        Proc& p = procs_[pid];
        if (!p.as) {
            p.as = std::make_unique<sim::AddressSpace>(pid, 0);
            p.as->setIdSource(&nextId_);
        }
        return p;
    }

    void emit(SimEvent e, bool inferred) {
        e.inferred = inferred;
        if (inferred) ++summary_.inferred;
        writer_.onEvent(e);
    }

    // Writes the holds a plan implies, at the call's time, and frees what left the tree.
    void emitPlan(const Line& l, sim::AddressSpace& as, sim::Plan& plan, bool inferred) {
        const std::int64_t t = l.t - origin_;
        for (const sim::Hold& h : plan.holds) {
            SimEvent lock;
            lock.time = t;
            lock.agent = l.pid;
            lock.cpu = l.cpu;
            lock.lock = h.file;
            lock.file = h.file;
            lock.kind = SimEvent::LockAcquire;
            emit(lock, inferred);
            for (std::uint32_t k = 0; k < h.opCount; ++k) {
                const sim::TreeOp& op = plan.ops[h.firstOp + k];
                if (op.kind == sim::TreeOp::Insert) {
                    op.vma->start = op.start;
                    op.vma->last = op.last;
                }
                SimEvent e;
                e.time = t;
                e.kind =
                    op.kind == sim::TreeOp::Insert ? SimEvent::TreeInsert : SimEvent::TreeRemove;
                e.agent = l.pid;
                e.cpu = l.cpu;
                e.file = op.vma->file;
                e.tree = 0;
                e.home = 0;
                e.vma = op.vma->id;
                e.start = op.vma->start;
                e.last = op.vma->last;
                emit(e, inferred);
                if (op.kind == sim::TreeOp::Remove && op.release) as.recycle(op.vma);
            }
            lock.kind = SimEvent::LockRelease;
            emit(lock, inferred);
        }
        plan.clear();
    }

    void apply(const Line& l) {
        Proc& p = proc(l.pid);
        sim::Plan plan;
        const sim::BatchRule batch;
        SimEvent base;
        base.time = l.t - origin_;
        base.agent = l.pid;
        base.cpu = l.cpu;
        if (l.event == "exec") {
            ++summary_.execs;
            SimEvent e = base;
            e.kind = SimEvent::ExecBegin;
            emit(e, false);
            inferExecMappings(l, p, plan);
        } else if (l.event == "open") {
            p.fds[decArg(l, "fd")] = arg(l, "path");
        } else if (l.event == "mmap") {
            const std::uint64_t addr = hexArg(l, "addr");
            const std::uint64_t len = hexArg(l, "len");
            const std::uint64_t flags = hexArg(l, "flags");
            const std::int64_t fd = decArg(l, "fd");
            if (addr >= ~std::uint64_t{4095} || len == 0) return;  // the call failed
            const std::uint64_t pages = (len + kPage - 1) / kPage;
            if (fd == 4294967295LL || fd < 0) {
                if (flags & kMapFixed)
                    p.as->planMmap(-1, addr / kPage, pages, 0, 0, true, batch, plan);
            } else {
                const auto it = p.fds.find(fd);
                const std::string path =
                    it != p.fds.end()
                        ? it->second
                        : "<fd " + std::to_string(fd) + " of pid " + std::to_string(l.pid) + ">";
                const std::uint64_t prot = hexArg(l, "prot");
                std::uint8_t bits = 0;
                if (prot & 1) bits |= sim::kProtRead;
                if (prot & 2) bits |= sim::kProtWrite;
                if (prot & 4) bits |= sim::kProtExec;
                p.as->planMmap(fileIndex(path), addr / kPage, pages, hexArg(l, "off") / kPage, bits,
                               false, batch, plan);
            }
            emitPlan(l, *p.as, plan, false);
        } else if (l.event == "munmap") {
            const std::uint64_t len = hexArg(l, "len");
            if (len == 0) return;
            p.as->planMunmap(hexArg(l, "addr") / kPage, (len + kPage - 1) / kPage, batch, plan);
            emitPlan(l, *p.as, plan, false);
        } else if (l.event == "exit_mmap") {
            p.as->planExitMmap(batch, plan);
            emitPlan(l, *p.as, plan, false);
        } else {
            SimEvent e = base;
            e.kind =
                l.event == "lock_wait" ? SimEvent::KernelLockWait : SimEvent::KernelLockAcquired;
            e.start = hexArg(l, "lock");
            emit(e, false);
        }
    }

    // load_elf_binary and load_elf_interp, as the built-in recipe lays them out: its kernel
    // steps (those before the first unlocked work) for the executable and for ld.so.
    void inferExecMappings(const Line& l, Proc& p, sim::Plan& plan) {
        const sim::Recipe& r = sim::Recipe::builtinDefault();
        const int exeFile = fileIndex(arg(l, "file"));
        const int ldFile = fileIndex(kLdPath);
        const int recipeExe = r.fileIndex("execl");
        const int recipeLd = r.fileIndex("ld-linux-x86-64.so.2");
        const sim::BatchRule batch;
        for (const sim::RecipeStep& s : r.steps) {
            if (s.op == sim::StepOp::Work) break;
            if (s.file != recipeExe && s.file != recipeLd) continue;
            const int file = s.file == recipeExe ? exeFile : ldFile;
            const std::uint64_t start = (s.file == recipeExe ? kExeBasePage : kLdBasePage) + s.at;
            if (s.op == sim::StepOp::Mmap)
                p.as->planMmap(file, start, s.pages, s.pgoff, s.prot, s.anon, batch, plan);
            else if (s.op == sim::StepOp::Munmap)
                p.as->planMunmap(start, s.pages, batch, plan);
        }
        emitPlan(l, *p.as, plan, true);
    }

    std::string in_;
    TraceWriter writer_;
    std::int64_t origin_ = 0;
    std::vector<std::string> files_;
    std::unordered_map<std::string, int> fileIndex_;
    std::map<std::int32_t, Proc> procs_;
    std::uint32_t nextId_ = 1;
    ImportSummary summary_;
};

}  // namespace

ImportSummary BpftraceImport::run(const std::string& inPath, const std::string& outPath) {
    // The trace is written to a temporary file and renamed over `outPath` at the end
    // (TraceWriter), so a failed import leaves it as it was; over its own input it must not go.
    if (const std::string why = io::OutputTarget::refusal(outPath, {inPath}); !why.empty())
        throw TraceError(outPath, 0, why);
    Importer importer(inPath, outPath);
    return importer.run();
}

}  // namespace immap::trace
