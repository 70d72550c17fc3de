#include "sim/EventQueue.h"

#include <stdexcept>
#include <string>

namespace immap::sim {

void EventQueue::pastTime(Time time) const {
    throw std::invalid_argument("EventQueue::schedule: time " + std::to_string(time) +
                                " is before now " + std::to_string(now_));
}

void EventQueue::emptyPop() {
    throw std::logic_error("EventQueue::pop: queue is empty");
}

}  // namespace immap::sim
