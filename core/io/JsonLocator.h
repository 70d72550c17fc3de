#pragma once
// Where things are in a JSON text, for messages: QJsonDocument forgets positions, so a reader
// that wants to say "FILE:LINE: reason" finds the key (through JsonKeys) or the array element
// again in the text. The scenario and sweep-part readers share it.

#include <cstddef>
#include <string_view>
#include <vector>

namespace immap::io {

class JsonLocator {
public:
    static constexpr std::ptrdiff_t kNotFound = -1;

    // The text must outlive the locator.
    explicit JsonLocator(std::string_view text) : text_(text) {}

    // The 1-based line holding `offset` (line 1 for kNotFound).
    int line(std::ptrdiff_t offset) const;
    // The offset of `key` as a key of the object that opens at or after `from`: its own, not a
    // nested object's of the same name (JsonKeys::offsetOf); kNotFound when it has none.
    std::ptrdiff_t key(std::string_view key, std::ptrdiff_t from) const;
    // The offsets where the elements of the array value of the key at `keyAt` begin.
    std::vector<std::ptrdiff_t> elements(std::ptrdiff_t keyAt) const;

private:
    std::string_view text_;
};

}  // namespace immap::io
