#pragma once
// One simulator event in words, for the contention tab's step caption: who (CPU and node),
// what (acquires, waits for, releases, inserts...), which lock by name, what for (the kernel
// call that takes it) and the queue it leaves behind, e.g. "CPU 37 (node 1) acquires
// libc.so.6/node1 (write) for a split (__split_vma: vma_prepare); 3 waiting".

#include <string>

#include "live/LiveSnapshot.h"
#include "sim/Simulator.h"
#include "trace/TraceHeader.h"

namespace immap::live {

// queue: the event's lock after the event (null for events without a lock).
std::string eventCaption(const sim::SimEvent& e, const trace::TraceHeader& header,
                         const LockQueue* queue);

}  // namespace immap::live
