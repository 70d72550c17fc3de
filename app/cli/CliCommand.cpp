#include "CliCommand.h"

#include <cmath>
#include <iostream>

#include "InputErrors.h"

namespace immap::cli {

namespace {

constexpr int kColumn = 26;  // where descriptions start in --help
constexpr int kWidth = 100;  // the repository's line length, and a terminal's

// Appends `text` word-wrapped to kWidth, every line after the first indented to kColumn.
void wrapped(std::string& out, const QString& text) {
    int at = kColumn;
    bool first = true;
    for (const QString& word : text.split(' ', Qt::SkipEmptyParts)) {
        const int len = static_cast<int>(word.toStdString().size());
        if (!first && at + 1 + len > kWidth) {
            out += '\n' + std::string(kColumn, ' ');
            at = kColumn;
        } else if (!first) {
            out += ' ';
            ++at;
        }
        out += word.toStdString();
        at += len;
        first = false;
    }
    out += '\n';
}

}  // namespace

// "  -o, --output OUT" padded to kColumn, or on a line of its own when longer.
std::string CliCommand::helpEntry(const std::string& left, const QString& description) {
    std::string out = "  " + left;
    const int used = 2 + static_cast<int>(left.size());
    if (used + 2 > kColumn)
        out += '\n' + std::string(kColumn, ' ');
    else
        out += std::string(static_cast<std::size_t>(kColumn - used), ' ');
    wrapped(out, description);
    return out;
}

CliCommand::CliCommand(QString path, QString description)
    : path_(std::move(path)), description_(std::move(description)) {
    addOption({{"h", "help"}, "Show this command's usage and options, and exit."});
}

void CliCommand::addOption(const QCommandLineOption& option) {
    parser_.addOption(option);
    options_.push_back(option);
}

void CliCommand::addPositional(const QString& name, const QString& description) {
    parser_.addPositionalArgument(name, description);
    positionals_.emplace_back(name, description);
}

void CliCommand::addPositionals(const QString& name, const QString& description) {
    addPositional(name + "...", description);
    variadic_ = true;
}

std::optional<int> CliCommand::parse(const QStringList& args) {
    if (!parser_.parse(args)) return usageError(parser_.errorText());
    if (parser_.isSet("help")) {
        std::cout << helpText();
        return 0;
    }
    const QStringList pos = parser_.positionalArguments();
    if (variadic_ ? static_cast<std::size_t>(pos.size()) >= positionals_.size()
                  : static_cast<std::size_t>(pos.size()) == positionals_.size())
        return std::nullopt;
    if (positionals_.empty()) return usageError("unexpected argument '" + pos.first() + "'");
    QStringList names;
    for (const auto& [name, description] : positionals_)
        names << name;
    if (variadic_) return usageError("takes " + names.join(' ') + " (one or more)");
    return usageError((positionals_.size() == 1 ? "takes one " : "takes ") + names.join(' '));
}

std::string CliCommand::helpText() const {
    std::string out = "Usage: immap " + path_.toStdString() + " [options]";
    for (const auto& [name, description] : positionals_)
        out += ' ' + name.toStdString();
    out += '\n';
    if (!description_.isEmpty()) {
        out += description_.toStdString();
        out += '\n';
    }
    out += "\nOptions:\n";
    for (const QCommandLineOption& o : options_) {
        if (o.flags() & QCommandLineOption::HiddenFromHelp) continue;
        std::string left;
        for (const QString& n : o.names()) {
            if (!left.empty()) left += ", ";
            left += (n.size() == 1 ? "-" : "--") + n.toStdString();
        }
        if (!o.valueName().isEmpty()) left += ' ' + o.valueName().toStdString();
        QString description = o.description();
        if (!o.defaultValues().isEmpty())
            description += " Default: " + o.defaultValues().join(',') + '.';
        out += helpEntry(left, description);
    }
    if (!positionals_.empty()) out += "\nArguments:\n";
    for (const auto& [name, description] : positionals_)
        out += helpEntry(name.toStdString(), description);
    return out;
}

int CliCommand::usageError(const std::string& message) const {
    const std::string path = path_.toStdString();
    std::cerr << "immap " << path << ": " << message << "\n(see 'immap " << path << " --help')\n";
    return kBadInput;
}

bool CliCommand::parseNumber(const QString& text, double& out) {
    bool ok = false;
    out = text.toDouble(&ok);
    return ok && std::isfinite(out);
}

bool CliCommand::parseInteger(const QString& text, std::uint64_t& out) {
    bool ok = false;
    // Base 10: with base 0, Qt read "010" as octal 8 while sweep and scenarios read 10.
    out = text.trimmed().startsWith('-') ? 0 : text.toULongLong(&ok, 10);
    return ok;
}

bool CliCommand::parseCounts(const QString& text, const char* option, unsigned max,
                             std::vector<unsigned>& out, std::string& error) {
    for (const QString& n : text.split(',', Qt::SkipEmptyParts)) {
        bool ok = false;
        const uint v = n.trimmed().toUInt(&ok);
        if (!ok || v == 0 || v > max) {
            error = std::string("--") + option + ": '" + n.toStdString() +
                    "' is not a count from 1 to " + std::to_string(max);
            return false;
        }
        out.push_back(v);
    }
    if (out.empty()) error = std::string("--") + option + " lists no count";
    return !out.empty();
}

}  // namespace immap::cli
