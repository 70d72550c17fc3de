#pragma once
// One run of a built program as a user runs it, for the end-to-end suites: its exit, output and
// time, and whether it finished within the timeout (a hang is as much a failure as a crash; an
// unfinished run is killed).
#include <QByteArray>
#include <QElapsedTimer>
#include <QProcess>
#include <QString>
#include <QStringList>

namespace immap::testing {

struct ProgramRun {
    bool finished = false;  // within the timeout
    bool crashed = false;   // killed by a signal (QProcess::CrashExit)
    int status = -1;        // the exit status; -2 when it crashed
    QByteArray out, err;
    qint64 ms = 0;
};

// `cwd` empty: the test's own directory. `env` empty: the test's environment.
inline ProgramRun runProgram(const QString& program, const QStringList& args, int timeoutMs,
                             const QString& cwd = {},
                             const QProcessEnvironment& env = QProcessEnvironment()) {
    QElapsedTimer t;
    t.start();
    QProcess p;
    if (!cwd.isEmpty()) p.setWorkingDirectory(cwd);
    if (!env.isEmpty()) p.setProcessEnvironment(env);
    p.start(program, args);
    p.closeWriteChannel();
    ProgramRun r;
    r.finished = p.waitForFinished(timeoutMs);
    if (!r.finished) {
        p.kill();
        p.waitForFinished();
    }
    r.crashed = p.exitStatus() == QProcess::CrashExit;
    r.status = r.crashed ? -2 : p.exitCode();
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    r.ms = t.elapsed();
    return r;
}

}  // namespace immap::testing
