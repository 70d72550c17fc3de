#pragma once
// The churn both trees' property tests run, written once: the kernel rbtree's
// (tests/core/itree) and the B-tree's (tests/core/btree). `H` drives its structure and its
// model together:
//   insert(start, last) and insertAfter(prev) return the new item, remove(item) removes one,
//   check() is false (with H::failure set) at the first disagreement, uniform(lo, hi) draws,
//   `live` holds the items in the structure (any order) and removeAt(i) removes live[i],
//   sequence() is the model's in-order sequence and remove(element of it) removes one.
// Each scenario checks after every op and returns false at the first failure.

#include <QTest>
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "itree/LibcChurn.h"

namespace immap::test {

// `processes` processes map libc's five segments, then `cycles` times a random one exits (its
// five VMAs removed) and a new one execs (five inserted): runs of thousands of equal starts.
template <class H>
bool libcExecExit(H& h, int processes, int cycles) {
    using Item = decltype(h.insert(0, 0));
    std::vector<std::vector<Item>> procs;
    auto exec = [&] {
        std::vector<Item> vmas;
        for (const auto& s : itree::kLibcSegments) {
            vmas.push_back(h.insert(s.pgoff, s.pgoff + s.pages - 1));
            if (!h.check()) return false;
        }
        procs.push_back(vmas);
        return true;
    };
    for (int p = 0; p < processes; ++p)
        if (!exec()) return false;
    for (int c = 0; c < cycles; ++c) {
        const std::size_t victim = h.uniform(0, procs.size() - 1);
        for (Item v : procs[victim]) {
            h.remove(v);
            if (!h.check()) return false;
        }
        procs[victim] = procs.back();
        procs.pop_back();
        if (!exec()) return false;
    }
    return true;
}

// Fork churn: 50 processes map libc, then `cycles` times either a random process forks
// (dup_mmap puts each child VMA right after its parent's with insert_after) or one exits, with
// between 20 and 400 processes. `forked(parent, child)` may check more of each copy.
template <class H, class Forked>
bool forkExit(H& h, int cycles, Forked&& forked) {
    using Item = decltype(h.insert(0, 0));
    std::vector<std::vector<Item>> procs;
    for (int p = 0; p < 50; ++p) {
        std::vector<Item> vmas;
        for (const auto& s : itree::kLibcSegments)
            vmas.push_back(h.insert(s.pgoff, s.pgoff + s.pages - 1));
        procs.push_back(vmas);
    }
    if (!h.check()) return false;
    for (int c = 0; c < cycles; ++c) {
        const std::size_t who = h.uniform(0, procs.size() - 1);
        if (procs.size() < 400 && (procs.size() < 20 || h.uniform(0, 1) == 0)) {
            std::vector<Item> child;
            for (Item parent : procs[who]) {
                Item n = h.insertAfter(parent);
                if (!h.check() || !forked(parent, n)) return false;
                child.push_back(n);
            }
            procs.push_back(child);
        } else {
            for (Item v : procs[who]) {
                h.remove(v);
                if (!h.check()) return false;
            }
            procs[who] = procs.back();
            procs.pop_back();
        }
    }
    return true;
}

// The random mixes' rows (seed, keySpan, maxLen, ops, peak) for a data function.
inline void randomMixRows() {
    constexpr quint64 kMax = std::numeric_limits<quint64>::max();
    QTest::addColumn<quint64>("seed");
    QTest::addColumn<quint64>("keySpan");  // small spans give many duplicate starts
    QTest::addColumn<quint64>("maxLen");
    QTest::addColumn<int>("ops");
    QTest::addColumn<int>("peak");  // the live count swings between 0 and this
    QTest::newRow("dense duplicates") << quint64(1) << quint64(16) << quint64(8) << 250000 << 600;
    QTest::newRow("nested ranges")
        << quint64(2) << quint64(1000) << quint64(1000) << 150000 << 1500;
    QTest::newRow("sparse small") << quint64(3) << quint64(1000000) << quint64(50) << 150000
                                  << 2500;
    QTest::newRow("full 64-bit range") << quint64(4) << kMax << kMax << 60000 << 800;
}

// The adversarial orders' rows: every insert order with every remove order, the last of
// which (`special`) is the structure's own (its `pick`).
inline void adversarialRows(const char* special) {
    QTest::addColumn<QString>("insertOrder");
    QTest::addColumn<QString>("removeOrder");
    for (const char* ins : {"ascending", "descending", "zigzag", "equal"})
        for (const char* rem : {"ascending", "descending", "zigzag", "random", special})
            QTest::addRow("%s/%s", ins, rem) << QString(ins) << QString(rem);
}

// Random inserts and removes, the live count swinging between 0 and `peak`, starts drawn from
// [0, keySpan] (small spans give many duplicate starts) and lengths from [0, maxLen]. With
// `forks`, a tenth of the ops are fork copies (insertAfter a random live item).
template <class H>
bool randomMix(H& h, std::uint64_t keySpan, std::uint64_t maxLen, int ops, int peak, bool forks) {
    constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();
    bool growing = true;
    for (int i = 0; i < ops; ++i) {
        if (h.live.size() >= static_cast<std::size_t>(peak)) growing = false;
        if (h.live.empty()) growing = true;
        // Mostly move towards the target size, with every op kind throughout.
        const std::uint64_t roll = h.uniform(0, 9);
        const std::uint64_t inserts = forks ? (growing ? 6u : 2u) : (growing ? 7u : 3u);
        if (h.live.empty() || roll < inserts) {
            const std::uint64_t start = h.uniform(0, keySpan);
            const std::uint64_t len = h.uniform(0, maxLen);
            h.insert(start, start > kMax - len ? kMax : start + len);
        } else if (forks && roll == inserts) {
            h.insertAfter(h.live[h.uniform(0, h.live.size() - 1)]);
        } else {
            h.removeAt(h.uniform(0, h.live.size() - 1));
        }
        if (!h.check()) return false;
    }
    return true;
}

// 2,500 inserts in an adversarial key order ("ascending", "descending", "zigzag" or "equal"),
// then every item removed in one ("ascending", "descending", "zigzag" or "random" over the
// model's order; any other: `pick()` names the next victim, e.g. the root).
template <class H, class Pick>
bool adversarial(H& h, const std::string& insertOrder, const std::string& removeOrder,
                 Pick&& pick) {
    constexpr std::uint64_t kN = 2500;
    h.spanHint = kN;
    auto zigzag = [](std::uint64_t i) { return i % 2 ? kN - 1 - i / 2 : i / 2; };
    for (std::uint64_t i = 0; i < kN; ++i) {
        std::uint64_t k = i;
        if (insertOrder == "descending") k = kN - 1 - i;
        if (insertOrder == "zigzag") k = zigzag(i);
        if (insertOrder == "equal") k = 42;
        h.insert(k, k + i % 7);
        if (!h.check()) return false;
    }
    auto order = h.sequence();
    if (removeOrder == "descending") std::reverse(order.begin(), order.end());
    if (removeOrder == "zigzag") {
        auto z = order;
        for (std::size_t i = 0; i < order.size(); ++i)
            z[i] = order[zigzag(i)];
        order = z;
    }
    if (removeOrder == "random") std::shuffle(order.begin(), order.end(), h.rng);
    const bool listed = removeOrder == "ascending" || removeOrder == "descending" ||
                        removeOrder == "zigzag" || removeOrder == "random";
    for (std::size_t i = 0; i < kN; ++i) {
        h.remove(listed ? order[i] : pick());
        if (!h.check()) return false;
    }
    return true;
}

}  // namespace immap::test
