#pragma once
// Long but legal work (loading a million-process host, a large archive) polls the user's Cancel
// between units of work and stops with this exception: nothing it built is kept, and callers
// that offer Cancel catch it and leave everything as it was.

#include <atomic>
#include <exception>

namespace immap::limits {

class Cancelled : public std::exception {
public:
    const char* what() const noexcept override { return "cancelled"; }
    // Throws Cancelled when `flag` is given and raised; cheap enough to call per process.
    static void check(const std::atomic<bool>* flag) {
        if (flag && flag->load(std::memory_order_relaxed)) throw Cancelled();
    }
};

}  // namespace immap::limits
