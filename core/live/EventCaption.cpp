#include "live/EventCaption.h"

#include <sstream>

namespace immap::live {

namespace {

std::string who(const sim::SimEvent& e, const trace::TraceHeader& h) {
    std::ostringstream s;
    const auto agent = static_cast<std::size_t>(e.agent);
    if (e.agent >= 0 && agent < h.copies) {
        s << "CPU " << e.cpu;
        if (agent < h.copyNodes.size()) s << " (node " << h.copyNodes[agent] << ")";
    } else {
        s << "walker " << (e.agent - static_cast<std::int32_t>(h.copies)) << " on CPU " << e.cpu;
    }
    return s.str();
}

std::string lockName(const sim::SimEvent& e, const trace::TraceHeader& h) {
    if (e.lock >= 0 && static_cast<std::size_t>(e.lock) < h.locks.size())
        return h.locks[static_cast<std::size_t>(e.lock)].name;
    return "lock " + std::to_string(e.lock);
}

// Walk events name no file: a walker walks the header's walker file.
std::string fileName(const sim::SimEvent& e, const trace::TraceHeader& h) {
    const int f = e.file >= 0 ? e.file : h.walkerFile;
    if (f >= 0 && static_cast<std::size_t>(f) < h.files.size())
        return h.files[static_cast<std::size_t>(f)];
    return "the file";
}

std::string purpose(const sim::SimEvent& e) {
    const std::string p = sim::purposeText(e.purpose);
    return p.empty() ? p : " " + p;
}

std::string mode(const sim::SimEvent& e) {
    return e.mode == 1 ? " (read)" : " (write)";
}

std::string waiting(const LockQueue* q) {
    if (!q) return {};
    return "; " + std::to_string(q->waiting.size()) + " waiting";
}

}  // namespace

std::string eventCaption(const sim::SimEvent& e, const trace::TraceHeader& h, const LockQueue* q) {
    const std::string w = who(e, h);
    switch (e.kind) {
        case sim::SimEvent::LockWait: {
            // The waiter is the queue's last: its place is the queue's length.
            const std::string place =
                q ? "; " + std::to_string(q->waiting.size()) + " in line" : std::string();
            return w + (e.spin ? " spins waiting for " : " sleeps waiting for ") + lockName(e, h) +
                   mode(e) + purpose(e) + place;
        }
        case sim::SimEvent::LockSleep:
            return w + " stops spinning on " + lockName(e, h) +
                   " and sleeps (another task needs its CPU)" + waiting(q);
        case sim::SimEvent::LockAcquire:
            return w + " acquires " + lockName(e, h) + mode(e) + purpose(e) + waiting(q);
        case sim::SimEvent::LockRelease:
            return w + " releases " + lockName(e, h) + waiting(q);
        case sim::SimEvent::TreeInsert:
        case sim::SimEvent::TreeRemove: {
            std::ostringstream s;
            s << w << (e.kind == sim::SimEvent::TreeInsert ? " inserts VMA " : " removes VMA ")
              << e.vma << " [" << e.start << ", " << e.last << "]"
              << (e.kind == sim::SimEvent::TreeInsert ? " into " : " from ") << fileName(e, h);
            if (h.treesPerFile > 1) s << "'s tree " << e.tree;
            if (e.home >= 0) s << " (home node " << e.home << ")";
            return s.str();
        }
        case sim::SimEvent::ExecBegin:
            return w + " begins an exec";
        case sim::SimEvent::ExecEnd:
            return w + " completes an exec";
        case sim::SimEvent::WalkArrive:
            return w + " asks for every tree lock of " + fileName(e, h) + " (rmap_walk_file)";
        case sim::SimEvent::WalkBegin:
            return w + " walks " + fileName(e, h) + "'s trees";
        case sim::SimEvent::WalkEnd:
            return w + " ends its walk";
        case sim::SimEvent::WalkGiveUp:
            return w + " finds a lock busy and gives up (trylock)";
        case sim::SimEvent::WindowStart:
            return "The warm-up is over: the measured window starts";
        case sim::SimEvent::KernelLockWait:
        case sim::SimEvent::KernelLockAcquired:
            break;
    }
    return w + " " + sim::simEventName(e.kind);
}

}  // namespace immap::live
