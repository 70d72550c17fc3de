#pragma once
// Something the transport bar can step through: a recorded tree update (StepPlayer) or an rmap
// walk (WalkPlayer). Positions count applied steps, 0..count().

#include <cstddef>
#include <string>

namespace immap::session {

class Playback {
public:
    virtual ~Playback() = default;
    virtual std::size_t count() const = 0;
    virtual std::size_t position() const = 0;
    // False, changing nothing, at either end.
    virtual bool forward() = 0;
    virtual bool backward() = 0;
    virtual void seek(std::size_t position) {
        while (this->position() < position && forward()) {
        }
        while (this->position() > position && backward()) {
        }
    }
    virtual std::string caption() const = 0;
    // Milliseconds per step at 1x: a tree update's steps need reading time; a walk has
    // thousands of small ones.
    virtual int stepMillis() const { return 700; }
    bool atStart() const { return position() == 0; }
    bool atEnd() const { return position() == count(); }
};

}  // namespace immap::session
