#pragma once
// A pathname shared by every maps entry that names the same file. A host maps libc.so.6 in every
// process and each process names it on five lines, so parsing gives each distinct path one
// allocation instead of one per line (PathInterner), and entries copy by reference count.

#include <array>
#include <cstdint>
#include <cstring>
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
        // A process's paths come in runs (five lines of libc) and in the same order as the
        // previous process's (libc, the locale files, ld.so): a small ring of recent paths,
        // keyed by length and last bytes, answers most lines without hashing.
        if (const Recent& last = ring_[newest_]; last.size == text.size() && last.path == text)
            return last.path;  // the same file as the line before: the commonest case
        const std::uint64_t tail = tailWord(text);
        for (std::size_t i = 0, slot = newest_; i < kRing; ++i, slot = (slot + kRing - 1) % kRing) {
            const Recent& r = ring_[slot];
            if (r.size == text.size() && r.tail == tail && r.path == text) return r.path;
        }
        auto it = paths_.find(text);
        if (it == paths_.end()) {
            Path p(text);
            // The key views the Path's own string, which lives as long as the map holds the Path.
            it = paths_.emplace(std::string_view(p.str()), p).first;
        }
        newest_ = (newest_ + 1) % kRing;
        ring_[newest_] = Recent{text.size(), tail, it->second};
        return it->second;
    }
    std::size_t size() const { return paths_.size(); }

private:
    static constexpr std::size_t kRing = 32;
    struct Recent {
        std::size_t size = ~std::size_t{0};
        std::uint64_t tail = 0;
        Path path;
    };
    static std::uint64_t tailWord(std::string_view s) {
        std::uint64_t w = 0;
        const std::size_t n = s.size() < 8 ? s.size() : 8;
        std::memcpy(&w, s.data() + s.size() - n, n);
        return w;
    }

    std::unordered_map<std::string_view, Path> paths_;
    std::array<Recent, kRing> ring_{};
    std::size_t newest_ = 0;
};

}  // namespace immap::procfs
