#pragma once
// A pathname shared by every maps entry that names the same file. A host maps libc.so.6 in every
// process and each process names it on five lines, so parsing gives each distinct path one
// allocation instead of one per line (PathInterner), and entries copy by reference count.

#include <cstring>
#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>

namespace immap::procfs {

class Path {
public:
    Path() = default;
    explicit Path(std::string s) : text_(std::make_shared<const std::string>(std::move(s))) {}
    explicit Path(std::string_view s) : Path(std::string(s)) {}
    explicit Path(const char* s) : Path(std::string(s)) {}

    const std::string& str() const { return text_ ? *text_ : emptyText(); }
    operator const std::string&() const { return str(); }  // NOLINT: reads like the string it is
    operator std::string_view() const { return str(); }    // NOLINT
    const char* c_str() const { return str().c_str(); }
    bool empty() const { return str().empty(); }
    std::size_t size() const { return str().size(); }
    std::size_t find(char c, std::size_t from = 0) const { return str().find(c, from); }
    bool ends_with(std::string_view s) const { return std::string_view(str()).ends_with(s); }

    friend bool operator==(const Path& a, std::string_view b) {
        return std::string_view(a.str()) == b;
    }
    friend bool operator==(const Path& a, const Path& b) {
        return a.text_ == b.text_ || a.str() == b.str();
    }

private:
    static const std::string& emptyText() {
        static const std::string kEmpty;
        return kEmpty;
    }
    std::shared_ptr<const std::string> text_;
};

// Hands out one shared Path per distinct text. Keep one per snapshot to share across processes.
class PathInterner {
public:
    Path intern(std::string_view text) {
        if (const Node* node = predict(text)) return node->path;
        auto it = nodes_.find(text);
        if (it == nodes_.end()) {
            Node node{Path(text), nullptr,
                      text.find_first_of(std::string_view("\0\\\n", 3)) == std::string_view::npos};
            // The key views the node's own string, which lives as long as the map holds it.
            it = nodes_.emplace(std::string_view(node.path.str()), std::move(node)).first;
        }
        Node* const node = &it->second;  // stable: the map never moves its elements
        if (last_) last_->next = node;
        last_ = node;
        return node->path;
    }

    // The interned path whose text is `raw`, if it is the one intern() would predict (below)
    // and holds no NUL, backslash or newline; else null. A parser may then take it for a pathname
    // as the file shows it without looking for escapes to decode: these bytes hold none.
    const Path* findPlain(std::string_view raw) {
        const Node* node = predict(raw);
        return node && node->plain ? &node->path : nullptr;
    }

    // The same for the bytes at p up to a `terminator` before `limit`, without looking for the
    // terminator first: a predicted path followed by it, or null.
    const Path* findPlainBefore(const char* p, const char* limit, char terminator) {
        if (!last_) return nullptr;
        for (Node* node : {last_, last_->next}) {
            if (!node || !node->plain) continue;
            const std::string& s = node->path.str();
            if (static_cast<std::size_t>(limit - p) > s.size() && p[s.size()] == terminator &&
                std::memcmp(p, s.data(), s.size()) == 0) {
                last_ = node;
                return &node->path;
            }
        }
        return nullptr;
    }

    std::size_t size() const { return nodes_.size(); }

    PathInterner() = default;
    // The nodes link to each other: a copy would link into the original.
    PathInterner(const PathInterner&) = delete;
    PathInterner& operator=(const PathInterner&) = delete;

private:
    struct Node {
        Path path;
        Node* next;  // the path interned right after this one, last time
        bool plain;  // no NUL, backslash or newline in the text
        bool matches(std::string_view text) const {
            const std::string& s = path.str();
            return s.size() == text.size() && std::memcmp(s.data(), text.data(), s.size()) == 0;
        }
    };

    // Paths come in runs (five lines of libc) and in the order the previous process had them
    // (the program, libc, ld.so, ...): the path of the line before, or the one that followed it
    // last time, answers most lines with one comparison and no hashing.
    const Node* predict(std::string_view text) {
        if (!last_) return nullptr;
        if (last_->matches(text)) return last_;
        if (Node* next = last_->next; next && next->matches(text)) {
            last_ = next;
            return next;
        }
        return nullptr;
    }

    std::unordered_map<std::string_view, Node> nodes_;
    Node* last_ = nullptr;
};

}  // namespace immap::procfs
