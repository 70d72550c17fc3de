#include "sim/EventQueue.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace immap::sim {

void EventQueue::schedule(Time time, Event event) {
    if (time < now_)
        throw std::invalid_argument("EventQueue::schedule: time " + std::to_string(time) +
                                    " is before now " + std::to_string(now_));
    event.time = time;
    heap_.push_back({event, nextSeq_++});
    std::push_heap(heap_.begin(), heap_.end(), later);
}

Event EventQueue::pop() {
    if (heap_.empty()) throw std::logic_error("EventQueue::pop: queue is empty");
    std::pop_heap(heap_.begin(), heap_.end(), later);
    const Event e = heap_.back().event;
    heap_.pop_back();
    now_ = e.time;
    return e;
}

}  // namespace immap::sim
