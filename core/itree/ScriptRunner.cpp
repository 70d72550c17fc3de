#include "ScriptRunner.h"

#include <vector>

#include "io/CutLine.h"

namespace immap::itree {

namespace {

const ScriptRunner::ScriptNode* asScript(const Node* n) {
    return static_cast<const ScriptRunner::ScriptNode*>(n);
}

}  // namespace

const ScriptRunner::ScriptNode* ScriptRunner::find(std::uint64_t id) const {
    auto it = live_.find(id);
    return it == live_.end() ? nullptr : it->second.get();
}

bool ScriptRunner::execute(const ScriptOp& op, std::string& error) {
    switch (op.kind) {
        case ScriptOp::Kind::None:
            return true;
        case ScriptOp::Kind::Insert: {
            auto [it, fresh] = live_.try_emplace(op.id);
            if (!fresh) {
                error = "insert of live ID " + std::to_string(op.id);
                return false;
            }
            it->second = std::make_unique<ScriptNode>(op.id, op.start, op.last);
            tree_.insert(it->second.get());
            return true;
        }
        case ScriptOp::Kind::Remove: {
            auto it = live_.find(op.id);
            if (it == live_.end()) {
                error = "remove of unknown ID " + std::to_string(op.id);
                return false;
            }
            tree_.remove(it->second.get());
            live_.erase(it);
            return true;
        }
        case ScriptOp::Kind::Query: {
            std::string line = "q:";
            for (Node* n = tree_.iterFirst(op.start, op.last); n;
                 n = IntervalTree::iterNext(n, op.start, op.last)) {
                line += ' ';
                line += std::to_string(asScript(n)->id);
            }
            line += '\n';
            out_ << line;
            return true;
        }
        case ScriptOp::Kind::Dump:
            dump(out_);
            return true;
    }
    return true;
}

void ScriptRunner::dump(std::ostream& out) const {
    std::string line = "d:";
    // Preorder with an explicit stack; a null entry prints as the missing child ".".
    std::vector<const Node*> stack{tree_.root()};
    while (!stack.empty()) {
        const Node* n = stack.back();
        stack.pop_back();
        if (!n) {
            line += " .";
            continue;
        }
        line += ' ';
        line += std::to_string(asScript(n)->id);
        line += n->isRed() ? ":r:" : ":b:";
        line += std::to_string(n->subtreeLast());
        stack.push_back(n->right());
        stack.push_back(n->left());
    }
    line += '\n';
    out << line;
}

bool ScriptRunner::run(std::istream& in, const std::string& name, std::ostream& err) {
    std::string text;
    std::string error;
    ScriptOp op;
    for (std::size_t lineNo = 1; std::getline(in, text); ++lineNo) {
        if (!OpScript::parseLine(text, op, error) || !execute(op, error)) {
            out_.flush();
            err << name << ':' << lineNo << ": " << error << '\n';
            return false;
        }
        // getline stopped at the end of the text, not at a newline: possibly cut there.
        if (in.eof()) warnings_.push_back(io::CutLine::message(name, lineNo));
    }
    if (in.bad()) {
        out_.flush();
        err << name << ": read error\n";
        return false;
    }
    return true;
}

}  // namespace immap::itree
