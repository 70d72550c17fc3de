#pragma once
// Says what a recorded step does in the kernel's words: the function, the case, the node.
//   "__rb_insert: insert fix-up, case 2: rotate left at pid 10007 [0x26, 0x17b]"

#include <string>

#include "TreeSet.h"
#include "itree/StepRecorder.h"

namespace immap::session {

class StepCaption {
public:
    // context: the fix-up or erase case step the step belongs to, if any.
    static std::string text(const TreeSet& set, TreeId tree, const itree::Step& step,
                            const itree::Step* context);
    static std::string nodeName(const TreeSet& set, const itree::Node* n);
    static std::string treeName(const TreeSet& set, TreeId tree);
    static std::string caseText(const itree::Step& s);
    static std::string hex(std::uint64_t v);  // "0x1d4", as every caption writes a page
};

}  // namespace immap::session
