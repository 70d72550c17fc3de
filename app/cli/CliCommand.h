#pragma once
// One command of `immap` ("tree run", "bench execl", ...): its option table, the parser set up
// from it, and the help text printed from it, so that what --help lists is what the parser
// accepts. Every command answers --help (its usage on stdout, exit 0) and refuses a bad command
// line the same way ("immap PATH: reason", a pointer to its --help, exit 2).
#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QString>
#include <QStringList>
#include <optional>
#include <string>
#include <vector>

namespace immap::cli {

class CliCommand {
public:
    // path: the words after "immap", e.g. "tree run"; description: what the command does.
    CliCommand(QString path, QString description);

    void addOption(const QCommandLineOption& option);
    // A positional argument, by the name the usage line shows (SCRIPT, SOURCE); the command then
    // takes exactly as many arguments as it declared.
    void addPositional(const QString& name, const QString& description);
    // One or more arguments of a kind (PART...); the command then takes at least one.
    void addPositionals(const QString& name, const QString& description);

    // args[0] is the word that named the command (skipped, like a program name). Returns an exit
    // status when the command is already over (--help: 0; a usage error: 2), nothing when it
    // should run.
    std::optional<int> parse(const QStringList& args);

    // "Usage: immap PATH [options] ARGS", the description, the options and arguments.
    std::string helpText() const;
    // Prints "immap PATH: message" and where to look; returns the usage exit status, 2.
    int usageError(const std::string& message) const;
    int usageError(const QString& message) const { return usageError(message.toStdString()); }
    int usageError(const char* message) const { return usageError(std::string(message)); }
    const QString& path() const { return path_; }

    bool isSet(const QString& name) const { return parser_.isSet(name); }
    QString value(const QString& name) const { return parser_.value(name); }
    QStringList values(const QString& name) const { return parser_.values(name); }
    QStringList positionalArguments() const { return parser_.positionalArguments(); }

    // The numbers every command reads: a finite decimal; a non-negative decimal integer (a leading
    // 0 is not octal, 0x is refused); "1,2,4" as counts from 1 to max. False (with the reason, for
    // counts) on anything else.
    static bool parseNumber(const QString& text, double& out);
    static bool parseInteger(const QString& text, std::uint64_t& out);
    static bool parseCounts(const QString& text, const char* option, unsigned max,
                            std::vector<unsigned>& out, std::string& error);

    // One line of a help listing, "  LEFT   description" with the description wrapped in its
    // column; shared with the listings of commands (CommandTable).
    static std::string helpEntry(const std::string& left, const QString& description);

private:
    QString path_;
    QString description_;
    QCommandLineParser parser_;
    std::vector<QCommandLineOption> options_;  // in the order --help lists them
    std::vector<std::pair<QString, QString>> positionals_;
    bool variadic_ = false;  // the last positional repeats
};

}  // namespace immap::cli
