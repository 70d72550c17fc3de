#pragma once
// The keys of a JSON text, found again with their lines. Qt's JSON parser keeps one value per
// key without a word (a scenario's second "copies" silently replaced the first) and forgets
// where anything was, so every JSON reader runs refuse<Error>() after the parse: a key twice in
// one object is refused, naming both lines. Keys are compared decoded ("\u0061" is "a"), as the
// parser compares them. Plain C++: any layer can use it.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "io/InputError.h"

namespace immap::io {

class JsonKeys {
public:
    struct Duplicate {
        std::string key;    // decoded
        int line = 0;       // 1-based: the second occurrence
        int firstLine = 0;  // ... and the first, in the same object
        // "duplicate key \"x\" (first at line 3)"
        std::string reason() const;
    };

    // The first key (in text order) that repeats within one object, if any. Text that is not
    // JSON is scanned as far as it makes sense and never read past its end.
    static std::optional<Duplicate> firstDuplicate(std::string_view text);

    // The lines at which `key` is used as an object's key, anywhere, in text order.
    static std::vector<int> linesOf(std::string_view text, std::string_view key);

    // The offset of `key` as a key of the object that opens at or after `from` (its own key,
    // not one of an object nested in it, which may come first), if it has one.
    static std::optional<std::size_t> offsetOf(std::string_view text, std::string_view key,
                                               std::size_t from = 0);

    // Throws Error(file, line, reason) for the first duplicate key; `firstLine` is the text's
    // first line in the file (a trace header's JSON sits on line 1 after the version).
    template <class Error>
    static void refuse(std::string_view text, const std::string& file, int firstLine = 1) {
        static_assert(std::is_base_of_v<InputError, Error>, "readers throw io::InputError");
        if (const std::optional<Duplicate> d = firstDuplicate(text)) {
            Duplicate shifted = *d;
            shifted.firstLine += firstLine - 1;
            throw Error(file, static_cast<std::size_t>(d->line + firstLine - 1), shifted.reason());
        }
    }
};

}  // namespace immap::io
