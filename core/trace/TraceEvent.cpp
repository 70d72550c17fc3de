#include "trace/TraceEvent.h"

#include <charconv>
#include <cstring>
#include <limits>
#include <type_traits>

namespace immap::trace {

using sim::SimEvent;

namespace {

const char* code(SimEvent::Kind k) {
    switch (k) {
        case SimEvent::ExecBegin:
            return "eb";
        case SimEvent::ExecEnd:
            return "ee";
        case SimEvent::LockWait:
            return "lw";
        case SimEvent::LockAcquire:
            return "la";
        case SimEvent::LockRelease:
            return "lr";
        case SimEvent::TreeInsert:
            return "ti";
        case SimEvent::TreeRemove:
            return "tr";
        case SimEvent::WalkBegin:
            return "wb";
        case SimEvent::WalkEnd:
            return "we";
        case SimEvent::WalkArrive:
            return "wa";
        case SimEvent::WindowStart:
            return "ws";
        case SimEvent::KernelLockWait:
            return "kw";
        case SimEvent::KernelLockAcquired:
            return "ka";
        case SimEvent::LockSleep:
            return "ls";
        case SimEvent::WalkGiveUp:
            return "wg";
    }
    return "??";
}

bool kindOf(const char* c, std::size_t n, SimEvent::Kind& k) {
    if (n != 2) return false;
    switch ((c[0] << 8) | c[1]) {
        case ('e' << 8) | 'b':
            k = SimEvent::ExecBegin;
            return true;
        case ('e' << 8) | 'e':
            k = SimEvent::ExecEnd;
            return true;
        case ('l' << 8) | 'w':
            k = SimEvent::LockWait;
            return true;
        case ('l' << 8) | 'a':
            k = SimEvent::LockAcquire;
            return true;
        case ('l' << 8) | 'r':
            k = SimEvent::LockRelease;
            return true;
        case ('l' << 8) | 's':
            k = SimEvent::LockSleep;
            return true;
        case ('t' << 8) | 'i':
            k = SimEvent::TreeInsert;
            return true;
        case ('t' << 8) | 'r':
            k = SimEvent::TreeRemove;
            return true;
        case ('w' << 8) | 'b':
            k = SimEvent::WalkBegin;
            return true;
        case ('w' << 8) | 'e':
            k = SimEvent::WalkEnd;
            return true;
        case ('w' << 8) | 'a':
            k = SimEvent::WalkArrive;
            return true;
        case ('w' << 8) | 'g':
            k = SimEvent::WalkGiveUp;
            return true;
        case ('w' << 8) | 's':
            k = SimEvent::WindowStart;
            return true;
        case ('k' << 8) | 'w':
            k = SimEvent::KernelLockWait;
            return true;
        case ('k' << 8) | 'a':
            k = SimEvent::KernelLockAcquired;
            return true;
        default:
            return false;
    }
}

template <class T>
void put(std::string& out, T v) {
    char buf[24];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, r.ptr);
}

// A field reader over one line: numbers separated by single spaces.
struct Fields {
    const char* p;
    const char* end;
    bool ok = true;

    // Decimal (optionally negative) or hex digits up to the next space or the end. Hand-rolled:
    // this is the replay's innermost loop. Overflow is refused, as from_chars would.
    template <class T>
    T num(int base = 10) {
        if (!ok) return T{};
        if (p < end && *p == ' ') ++p;
        bool negative = false;
        if constexpr (std::is_signed_v<T>) {
            if (p < end && *p == '-') {
                negative = true;
                ++p;
            }
        }
        const char* start = p;
        std::uint64_t v = 0;
        constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();
        while (p < end && *p != ' ') {
            unsigned d;
            const char c = *p;
            if (c >= '0' && c <= '9')
                d = static_cast<unsigned>(c - '0');
            else if (base == 16 && c >= 'a' && c <= 'f')
                d = static_cast<unsigned>(c - 'a' + 10);
            else if (base == 16 && c >= 'A' && c <= 'F')
                d = static_cast<unsigned>(c - 'A' + 10);
            else {
                ok = false;
                return T{};
            }
            if (v > (kMax - d) / static_cast<unsigned>(base)) {
                ok = false;
                return T{};
            }
            v = v * static_cast<unsigned>(base) + d;
            ++p;
        }
        if (p == start) {
            ok = false;
            return T{};
        }
        if constexpr (std::is_signed_v<T>) {
            const auto limit =
                static_cast<std::uint64_t>(std::numeric_limits<T>::max()) + (negative ? 1 : 0);
            if (v > limit) {
                ok = false;
                return T{};
            }
            return negative ? static_cast<T>(-static_cast<std::int64_t>(v - 1) - 1)
                            : static_cast<T>(v);
        } else {
            if (v > std::numeric_limits<T>::max()) {
                ok = false;
                return T{};
            }
            return static_cast<T>(v);
        }
    }
    char ch() {
        if (p < end && *p == ' ') ++p;
        if (p + 1 > end || (p + 1 < end && p[1] != ' ')) {
            ok = false;
            return 0;
        }
        return *p++;
    }
};

}  // namespace

void appendEvent(std::string& out, const SimEvent& e) {
    put(out, e.time);
    out += ' ';
    out += code(e.kind);
    if (e.inferred) out += '*';
    out += ' ';
    put(out, e.agent);
    out += ' ';
    put(out, e.cpu);
    switch (e.kind) {
        case SimEvent::LockWait:
        case SimEvent::LockAcquire:
            out += ' ';
            put(out, e.lock);
            out += e.mode ? " r" : e.spin && e.kind == SimEvent::LockWait ? " s" : " w";
            break;
        case SimEvent::LockRelease:
        case SimEvent::LockSleep:
            out += ' ';
            put(out, e.lock);
            break;
        case SimEvent::TreeInsert:
        case SimEvent::TreeRemove:
            for (std::uint64_t v :
                 {static_cast<std::uint64_t>(e.file), static_cast<std::uint64_t>(e.tree),
                  static_cast<std::uint64_t>(e.vma), e.start, e.last}) {
                out += ' ';
                put(out, v);
            }
            out += ' ';
            put(out, e.home);
            break;
        case SimEvent::KernelLockWait:
        case SimEvent::KernelLockAcquired: {
            out += " ";
            char buf[24];
            const auto r = std::to_chars(buf, buf + sizeof buf, e.start, 16);
            out.append(buf, r.ptr);
            break;
        }
        default:
            break;
    }
    out += '\n';
}

void appendEndRecord(std::string& out, std::int64_t time, std::uint64_t events) {
    put(out, time);
    out += " en -1 -1 ";
    put(out, events);
    out += '\n';
}

EndRecord parseEndRecord(const char* begin, const char* end, std::int64_t& time,
                         std::uint64_t& events) {
    // Cheap test first: this runs on every line.
    const char* sp = static_cast<const char*>(std::memchr(begin, ' ', end - begin));
    if (!sp || end - sp < 4 || sp[1] != 'e' || sp[2] != 'n' || sp[3] != ' ') return EndRecord::No;
    Fields f{begin, end};
    time = f.num<std::int64_t>();
    f.p = sp + 3;
    const auto agent = f.num<std::int32_t>();
    const auto cpu = f.num<std::int32_t>();
    events = f.num<std::uint64_t>();
    if (!f.ok || f.p != end || agent != -1 || cpu != -1 || time < 0 || time > kMaxEventTime)
        return EndRecord::Malformed;
    return EndRecord::Yes;
}

bool parseEvent(const char* begin, const char* end, const TraceHeader& header, SimEvent& e,
                std::string& reason) {
    const std::size_t locks = header.locks.size(), files = header.files.size();
    e = SimEvent{};
    Fields f{begin, end};
    e.time = f.num<std::int64_t>();
    if (!f.ok) {
        reason = "expected a time in ns at the start of the line";
        return false;
    }
    // Runs start at 0 and imports are rebased to their first event; bounding times keeps every
    // sum and difference of them in a replay far from int64 overflow.
    if (e.time < 0 || e.time > kMaxEventTime) {
        reason =
            "time " + std::to_string(e.time) + " ns is outside 0.." + std::to_string(kMaxEventTime);
        return false;
    }
    if (f.p < end && *f.p == ' ') ++f.p;
    const char* c = f.p;
    while (f.p < end && *f.p != ' ' && *f.p != '*')
        ++f.p;
    if (!kindOf(c, static_cast<std::size_t>(f.p - c), e.kind)) {
        reason = "unknown event code \"" + std::string(c, static_cast<std::size_t>(f.p - c)) + "\"";
        return false;
    }
    if (f.p < end && *f.p == '*') {
        e.inferred = true;
        ++f.p;
    }
    e.agent = f.num<std::int32_t>();
    e.cpu = f.num<std::int32_t>();
    switch (e.kind) {
        case SimEvent::LockWait:
        case SimEvent::LockAcquire: {
            e.lock = f.num<std::int32_t>();
            const char m = f.ch();
            // A wait's writer spins (s) or sleeps (w); an acquisition is r or w.
            if (f.ok && m != 'r' && m != 'w' && (m != 's' || e.kind != SimEvent::LockWait))
                f.ok = false;
            e.mode = m == 'r' ? 1 : 0;
            e.spin = m == 's';
            break;
        }
        case SimEvent::LockRelease:
        case SimEvent::LockSleep:
            e.lock = f.num<std::int32_t>();
            break;
        case SimEvent::TreeInsert:
        case SimEvent::TreeRemove:
            e.file = f.num<std::int32_t>();
            e.tree = f.num<std::int32_t>();
            e.vma = f.num<std::uint32_t>();
            e.start = f.num<std::uint64_t>();
            e.last = f.num<std::uint64_t>();
            e.home = f.num<std::int32_t>();
            break;
        case SimEvent::KernelLockWait:
        case SimEvent::KernelLockAcquired:
            e.start = f.num<std::uint64_t>(16);
            break;
        default:
            break;
    }
    if (!f.ok || f.p != end) {
        reason = std::string("malformed \"") + code(e.kind) +
                 "\" event (fields missing, extra or not numbers)";
        return false;
    }
    // -1 means "none" (set-up, background, no CPU); anything below is not a copy, pid or CPU.
    if (e.agent < -1 || e.cpu < -1) {
        reason =
            (e.agent < -1 ? "agent " + std::to_string(e.agent) : "CPU " + std::to_string(e.cpu)) +
            " is negative (only -1, for none, is allowed)";
        return false;
    }
    if ((e.kind == SimEvent::LockWait || e.kind == SimEvent::LockAcquire ||
         e.kind == SimEvent::LockRelease || e.kind == SimEvent::LockSleep) &&
        (e.lock < 0 || static_cast<std::size_t>(e.lock) >= locks)) {
        reason = "lock " + std::to_string(e.lock) + " is not in the header's " +
                 std::to_string(locks) + " locks";
        return false;
    }
    if ((e.kind == SimEvent::TreeInsert || e.kind == SimEvent::TreeRemove) &&
        (e.file < 0 || static_cast<std::size_t>(e.file) >= files || e.tree < 0 ||
         static_cast<unsigned>(e.tree) >= header.treesPerFile || e.last < e.start || e.home < 0)) {
        if (e.file < 0 || static_cast<std::size_t>(e.file) >= files)
            reason = "file " + std::to_string(e.file) + " is not in the header's " +
                     std::to_string(files) + " files";
        else if (e.tree < 0)
            reason = "tree " + std::to_string(e.tree) + " is negative";
        else if (static_cast<unsigned>(e.tree) >= header.treesPerFile)
            reason = "tree " + std::to_string(e.tree) + " is beyond the header's trees_per_file (" +
                     std::to_string(header.treesPerFile) + ": trees 0 to " +
                     std::to_string(header.treesPerFile - 1) + ")";
        else if (e.home < 0)
            reason = "home node " + std::to_string(e.home) + " is negative";
        else
            reason = "the interval's last page is before its first";
        return false;
    }
    return true;
}

}  // namespace immap::trace
