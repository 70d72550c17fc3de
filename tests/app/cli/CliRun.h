#pragma once
// Runs the built `immap` as a user at a shell would: arguments, standard input, and what comes
// back (exit status, standard output, standard error).

#include <QByteArray>
#include <QProcess>
#include <QStringList>

namespace immap::test {

struct CliResult {
    int status;  // exit code; -1 timed out, -2 crashed
    QByteArray out;
    QByteArray err;
};

inline CliResult runImmap(const QStringList& args, const QByteArray& input = {}) {
    QProcess p;
    p.start(IMMAP_CLI, args);
    p.write(input);
    p.closeWriteChannel();
    if (!p.waitForFinished(120000)) return {-1, {}, "timed out"};
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2, p.readAllStandardOutput(),
            p.readAllStandardError()};
}

}  // namespace immap::test
