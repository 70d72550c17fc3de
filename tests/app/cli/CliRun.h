#pragma once
// Runs the built `immap` as a user at a shell would: arguments, standard input, and what comes
// back (exit status, standard output, standard error).

#include <QByteArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QProcessEnvironment>
#include <QStringList>

namespace immap::test {

struct CliResult {
    int status;  // exit code; -1 timed out, -2 crashed
    QByteArray out;
    QByteArray err;
};

// `env`: NAME=VALUE pairs added to the environment for this run.
inline CliResult runImmap(const QStringList& args, const QByteArray& input = {},
                          const QStringList& env = {}) {
    QProcess p;
    if (!env.isEmpty()) {
        QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
        for (const QString& kv : env)
            e.insert(kv.section('=', 0, 0), kv.section('=', 1));
        p.setProcessEnvironment(e);
    }
    p.start(IMMAP_CLI, args);
    p.write(input);
    p.closeWriteChannel();
    if (!p.waitForFinished(120000)) return {-1, {}, "timed out"};
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2, p.readAllStandardOutput(),
            p.readAllStandardError()};
}

// A command's JSON output as an object; a parse error is reported and gives an empty object.
inline QJsonObject json(const QByteArray& text) {
    QJsonParseError e{};
    const QJsonDocument d = QJsonDocument::fromJson(text, &e);
    if (e.error != QJsonParseError::NoError) qWarning("%s", qPrintable(e.errorString()));
    return d.object();
}

}  // namespace immap::test
