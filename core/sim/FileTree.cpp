#include "sim/FileTree.h"

#include "itree/ObservedUpdate.h"

#include "sim/Pricer.h"
#include "sim/ResultMath.h"

namespace immap::sim {

FileTree::FileTree(mapping::Policy::Structure structure, Pricer* pricer) : pricer_(pricer) {
    if (structure == mapping::Policy::Structure::BTree) {
        bt_ = std::make_unique<btree::IntervalBTree>();
        bt_->setObserver(pricer);
    } else {
        rb_ = std::make_unique<itree::IntervalTree>();  // its touches go to pricer_ directly
    }
}

void FileTree::insert(SimVma* v) {
    if (rb_) {
        if (pricer_)
            itree::insertObserved(*rb_, v, *pricer_);
        else
            rb_->insert(v);
        return;
    }
    btree::Item& item = *v;
    item.start = v->start;
    item.last = v->last;
    bt_->insert(v);
}

void FileTree::remove(SimVma* v) {
    if (rb_ && pricer_)
        itree::removeObserved(*rb_, v, *pricer_);
    else if (rb_)
        rb_->remove(v);
    else
        bt_->remove(v);
}

std::size_t FileTree::linkBytes() const {
    return rb_ ? itree::kLinkageBytes * rb_->size() : bt_->linkBytes();
}

int FileTree::height() const {
    return rb_ ? treeHeight(*rb_) : bt_->height();
}

}  // namespace immap::sim
