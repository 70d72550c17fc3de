#pragma once
// Helpers for the kill tests of atomic saves (the CLI's and the app's): start a writer, SIGKILL it
// mid-save, then check that the old file survived and nothing but hidden temporaries is left.
#include <signal.h>

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QStringList>

namespace immap::testing {

inline const QByteArray kOldContent = "the previous content, which must survive\n";

inline QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// Starts `program`, waits `afterMs`, then SIGKILLs it (unless it has already finished).
// Returns true when it was killed while running.
inline bool killAfter(const QString& program, const QStringList& args, int afterMs) {
    QProcess p;
    p.start(program, args);
    if (!p.waitForStarted()) return false;
    const bool finished = p.waitForFinished(afterMs);
    if (!finished) ::kill(static_cast<pid_t>(p.processId()), SIGKILL);
    p.waitForFinished();
    return !finished && p.exitStatus() == QProcess::CrashExit;
}

// Files in dir other than the named ones: what a killed writer left behind.
inline QStringList leftovers(const QString& dir, const QStringList& keep) {
    QStringList rest = QDir(dir).entryList(QDir::Files | QDir::Hidden);
    for (const QString& k : keep)
        rest.removeAll(k);
    return rest;
}

}  // namespace immap::testing
