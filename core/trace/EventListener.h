#pragma once
// What an EventInterpreter tells its consumer, one call per transition it applied. Every call
// gets the event itself; the interpreter's state already includes it. The defaults ignore the
// transition, so each consumer overrides only what it shows.

#include "sim/Simulator.h"

namespace immap::trace {

class EventListener {
public:
    virtual ~EventListener() = default;
    virtual void waitBegan(const sim::SimEvent&) {}
    // A spinning waiter stopped spinning and sleeps, still waiting.
    virtual void waitSlept(const sim::SimEvent&) {}
    // afterWait: the grant ends a wait reported before (a release handed the lock over); else
    // the lock was taken at once.
    virtual void acquired(const sim::SimEvent&, bool /*afterWait*/) {}
    // lastHeld: the agent holds no lock any more.
    virtual void released(const sim::SimEvent&, bool /*lastHeld*/) {}
    // Just before the insert or remove is applied (a touch observer on the trees then sees the
    // operation's node reads), and just after.
    virtual void treeOpBegins(const sim::SimEvent&) {}
    virtual void treeChanged(const sim::SimEvent&) {}
    virtual void execBegan(const sim::SimEvent&) {}
    virtual void execEnded(const sim::SimEvent&) {}
    virtual void walkArrived(const sim::SimEvent&) {}
    virtual void walkBegan(const sim::SimEvent&) {}
    // A trylock walker gave up at once (a lock it needs was busy).
    virtual void walkGaveUp(const sim::SimEvent&) {}
    // arrival: when the walker asked for its locks.
    virtual void walkEnded(const sim::SimEvent&, sim::Time /*arrival*/) {}
    virtual void windowStarted(const sim::SimEvent&) {}
    virtual void kernelWaitBegan(const sim::SimEvent&) {}
    virtual void kernelAcquired(const sim::SimEvent&) {}
};

}  // namespace immap::trace
