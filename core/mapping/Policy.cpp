#include "Policy.h"

#include <charconv>

namespace immap::mapping {

bool Policy::parse(std::string_view text, Policy& out, std::string& error) {
    out = Policy{};
    if (text == "btree") {
        out.structure = Structure::BTree;
        return true;
    }
    if (text.substr(0, 6) == "btree+") {
        const std::string_view rest = text.substr(6);
        if (rest == "single" || rest.substr(0, 5) == "btree") {
            // Built by appends: GCC 12 warns falsely (-Wrestrict) on a literal + string chain.
            std::string why(1, '\'');
            why.append(text.substr(0, 40));
            why.append(
                "': the B-tree with one tree and lock is 'btree'; 'btree+' goes before "
                "split-trees, split-locks, sharded:K or no-rmap");
            error = std::move(why);
            return false;
        }
        if (!parse(rest, out, error)) return false;
        out.structure = Structure::BTree;
        return true;
    }
    if (text == "single") return true;
    if (text == "split-trees") {
        out.kind = Kind::SplitTrees;
        return true;
    }
    if (text == "split-locks") {
        out.kind = Kind::SplitLocks;
        return true;
    }
    if (text == "no-rmap") {
        out.kind = Kind::NoRmap;
        return true;
    }
    if (text.substr(0, 8) == "sharded:") {
        const std::string_view k = text.substr(8);
        unsigned v = 0;
        auto [p, ec] = std::from_chars(k.data(), k.data() + k.size(), v);
        if (ec == std::errc{} && p == k.data() + k.size() && v > 0) {
            out.kind = Kind::Sharded;
            out.cpusPerShard = v;
            return true;
        }
        error =
            "sharded:K needs a positive CPU count K, got '" + std::string(k.substr(0, 20)) + "'";
        return false;
    }
    error = "unknown policy '" + std::string(text.substr(0, 40)) +
            "' (expected single, split-trees, split-locks, sharded:K or no-rmap, or btree, "
            "or btree+ before one of the others)";
    return false;
}

bool Policy::namesBTree(std::string_view text) {
    Policy p;
    std::string error;
    return parse(text, p, error) && p.structure == Structure::BTree;
}

std::string Policy::name() const {
    if (structure == Structure::BTree) {
        if (kind == Kind::Single) return "btree";
        Policy rb = *this;
        rb.structure = Structure::RbTree;
        return "btree+" + rb.name();
    }
    switch (kind) {
        case Kind::Single:
            return "single";
        case Kind::SplitTrees:
            return "split-trees";
        case Kind::SplitLocks:
            return "split-locks";
        case Kind::Sharded:
            return "sharded:" + std::to_string(cpusPerShard);
        case Kind::NoRmap:
            return "no-rmap";
    }
    return "?";
}

std::size_t Policy::memoryPerInodeBytes(std::size_t trees) const {
    switch (kind) {
        case Kind::Single:
        case Kind::NoRmap:  // an inode flag (the write-hint field), no new structure
            return 0;
        case Kind::SplitTrees:
            return trees * kRootBytes + (trees + 1) * kSlotBytes;
        case Kind::SplitLocks:
        case Kind::Sharded:
            return trees * kLockedTreeBytes + (trees + 1) * kSlotBytes;
    }
    return 0;
}

}  // namespace immap::mapping
