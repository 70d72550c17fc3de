#include "NodePool.h"

namespace immap::btree {

NodePool::~NodePool() {
    for (Leaf* l : leaves_)
        delete l;
    for (Inner* n : inners_)
        delete n;
}

Leaf* NodePool::leaf() {
    if (leaves_.empty()) return new Leaf;
    Leaf* l = leaves_.back();
    leaves_.pop_back();
    *l = Leaf{};
    return l;
}

Inner* NodePool::inner() {
    if (inners_.empty()) return new Inner;
    Inner* n = inners_.back();
    inners_.pop_back();
    *n = Inner{};
    return n;
}

}  // namespace immap::btree
