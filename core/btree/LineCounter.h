#pragma once
// Cache lines an operation touches, counted in the code as it runs (IntervalBTree reports each
// array range it reads or writes): the distinct 64-byte lines since the last reset, and the
// writes to items' back pointers (lines of the caller's objects, a VMA each).

#include <algorithm>
#include <cstdint>
#include <vector>

#include "TouchObserver.h"

namespace immap::btree {

class LineCounter final : public TouchObserver {
public:
    void read(const void* p, std::size_t bytes) override { touch(p, bytes); }
    void write(const void* p, std::size_t bytes) override { touch(p, bytes); }
    void readItem(const Item* item) override { touch(item, sizeof(Item)); }
    void backPointer(const Item* item) override {
        ++backPointers_;
        touch(item, sizeof(void*));
    }

    void touch(const void* p, std::size_t bytes) {
        const auto a = reinterpret_cast<std::uintptr_t>(p) >> 6;
        const auto b = (reinterpret_cast<std::uintptr_t>(p) + (bytes ? bytes - 1 : 0)) >> 6;
        for (auto line = a; line <= b; ++line)
            lines_.push_back(line);
    }
    std::size_t lines() const {
        std::sort(lines_.begin(), lines_.end());
        lines_.erase(std::unique(lines_.begin(), lines_.end()), lines_.end());
        return lines_.size();
    }
    std::size_t backPointers() const { return backPointers_; }
    void reset() {
        lines_.clear();
        backPointers_ = 0;
    }

private:
    mutable std::vector<std::uintptr_t> lines_;  // with repeats until lines() is asked
    std::size_t backPointers_ = 0;
};

}  // namespace immap::btree
