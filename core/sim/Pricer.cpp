#include "sim/Pricer.h"

#include "sim/SimVma.h"

namespace immap::sim {

namespace {

// The lines [p, p + bytes) spans, as line numbers (address / 64).
struct LineRange {
    std::uintptr_t first, last;
    LineRange(const void* p, std::size_t bytes)
        : first(reinterpret_cast<std::uintptr_t>(p) >> 6),
          last((reinterpret_cast<std::uintptr_t>(p) + (bytes ? bytes - 1 : 0)) >> 6) {}
};

}  // namespace

Pricer::NodeLine& Pricer::lineAt(std::uintptr_t line) {
    auto [it, added] = lines_.try_emplace(line);
    // Every node is made through created(); a line seen first here is homed where it is used.
    if (added) it->second.home = cache->nodeOf(cpu_);
    return it->second;
}

void Pricer::read(const void* p, std::size_t bytes) {
    if (!enabled) return;
    for (LineRange r(p, bytes); r.first <= r.last; ++r.first) {
        NodeLine& l = lineAt(r.first);
        ++reads;
        cost += cache->read(l.line, cpu_, l.home);
    }
}

void Pricer::write(const void* p, std::size_t bytes) {
    if (!enabled) return;
    for (LineRange r(p, bytes); r.first <= r.last; ++r.first) {
        NodeLine& l = lineAt(r.first);
        cost += cache->write(l.line, cpu_, l.home);
    }
}

void Pricer::readItem(const btree::Item* item) {
    if (!enabled) return;
    ++reads;
    const auto* v = static_cast<const SimVma*>(item);
    cost += cache->read(v->line, cpu_, v->home);
}

void Pricer::backPointer(const btree::Item* item) {
    if (!enabled) return;
    const auto* v = static_cast<const SimVma*>(item);
    cost += cache->write(v->line, cpu_, v->home);
}

void Pricer::created(const void* p, std::size_t bytes) {
    for (LineRange r(p, bytes); r.first <= r.last; ++r.first) {
        NodeLine& l = lines_[r.first];
        l.line.reset();
        if (enabled) {
            l.home = cache->nodeOf(cpu_);
            cache->own(l.line, cpu_);
        } else {
            l.home = setUpNode_;  // set-up: in memory on the maker's node, nobody holds it
        }
    }
}

}  // namespace immap::sim
