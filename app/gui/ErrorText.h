#pragma once
// How a dialog lays out a reader's located error (io::InputError, whichever reader threw it):
// "File: F / Line: N / Reason: R", the same three fields the CLI prints as "F:N: R".

#include <QString>

namespace immap::io {
class InputError;
}

namespace immap::gui {

class ErrorText {
public:
    static QString of(const io::InputError& e);
};

}  // namespace immap::gui
