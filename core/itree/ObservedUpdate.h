#pragma once
// IntervalTree's insert and remove reporting their touches to an observer whose type is known
// where they are compiled: the same updates, case for case, and the same touches in the same
// order as IntervalTree::setObserver's, without a virtual call per touch. The simulator prices
// every touch (some 400 million in sim_sweep_bench), so its pricer is called this way.
//   Obs: void read(const Node*); void write(const Node*);

#include "IntervalTree.h"
#include "TreeWriter.h"

namespace immap::itree {

// vma_interval_tree_insert, `obs` told of every node read and written.
template <class Obs>
void insertObserved(IntervalTree& tree, Node* node, Obs& obs) {
    TreeWriter<detail::TouchesTo<Obs>>(tree, detail::TouchesTo<Obs>{obs}).insert(node);
}

// vma_interval_tree_remove, `obs` told of every node read and written.
template <class Obs>
void removeObserved(IntervalTree& tree, Node* node, Obs& obs) {
    TreeWriter<detail::TouchesTo<Obs>>(tree, detail::TouchesTo<Obs>{obs}).remove(node);
}

}  // namespace immap::itree
