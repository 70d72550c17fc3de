#pragma once
// Helpers for the kill tests of atomic saves (the CLI's and the app's): start a writer, SIGKILL it
// mid-save, then check that the target is either the old file or the complete new one, and that
// nothing but hidden temporaries is left.
//
// Timing is the machine's, not the test's: a kill meant for the middle of a write may land
// before the write starts (a loaded machine) or after the rename that commits it (a fast one).
// Both are correct outcomes, so the tests accept them, classify each kill by what the process
// had written (/proc/PID/io) and what the target holds, and move the next kill's moment until
// one has landed mid-write.
#include <signal.h>

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QStringList>
#include <algorithm>

namespace immap::testing {

inline const QByteArray kOldContent = "the previous content, which must survive\n";

inline QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

inline bool writeAll(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(bytes) == bytes.size();
}

// Bytes the process has passed to write(2) so far ("wchar" of /proc/PID/io); -1 if unreadable.
inline qint64 bytesWritten(qint64 pid) {
    QFile io(QStringLiteral("/proc/%1/io").arg(pid));
    if (!io.open(QIODevice::ReadOnly)) return -1;
    for (const QByteArray& line : io.readAll().split('\n'))
        if (line.startsWith("wchar:")) return line.mid(6).trimmed().toLongLong();
    return -1;
}

struct Kill {
    bool killed = false;  // SIGKILLed while running (false: it had already finished)
    qint64 written = 0;   // bytes it had written when killed (-1: unknown)
    explicit operator bool() const { return killed; }
};

// Starts `program`, waits `afterMs`, then SIGKILLs it (unless it has already finished).
inline Kill killAfter(const QString& program, const QStringList& args, int afterMs) {
    QProcess p;
    p.start(program, args);
    if (!p.waitForStarted()) return {};
    const bool finished = p.waitForFinished(afterMs);
    Kill k;
    if (!finished) {
        // Read before the kill: the count only grows, so it is a lower bound at the kill.
        k.written = bytesWritten(p.processId());
        ::kill(static_cast<pid_t>(p.processId()), SIGKILL);
    }
    p.waitForFinished();
    k.killed = !finished && p.exitStatus() == QProcess::CrashExit;
    return k;
}

// Files in dir other than the named ones: what a killed writer left behind.
inline QStringList leftovers(const QString& dir, const QStringList& keep) {
    QStringList rest = QDir(dir).entryList(QDir::Files | QDir::Hidden);
    for (const QString& k : keep)
        rest.removeAll(k);
    return rest;
}

struct KillTally {
    int midWrite = 0;     // killed after writing at least minBytes; the target still old
    int beforeWrite = 0;  // killed earlier; the target old
    int afterCommit = 0;  // finished, or killed after the rename; the target complete
    QString wrong;        // non-empty: the target was neither (the test must fail)
};

// Runs `program` over and over, writing kOldContent to `target` before each run and killing the
// run at a moment that starts at `firstMs` and moves (earlier after a kill that came too late,
// later after one that came too early) until `wantMidWrite` kills have landed mid-write or
// `tries` runs are spent. After every kill the target must be kOldContent or exactly `complete`.
inline KillTally killUntilMidWrite(const QString& program, const QStringList& args,
                                   const QString& target, const QByteArray& complete, int firstMs,
                                   qint64 minBytes, int wantMidWrite = 1, int tries = 12) {
    KillTally tally;
    double delay = std::max(1, firstMs);
    for (int i = 0; i < tries && tally.midWrite < wantMidWrite; ++i) {
        if (!writeAll(target, kOldContent)) {
            tally.wrong = "cannot write " + target;
            return tally;
        }
        const Kill k = killAfter(program, args, static_cast<int>(delay));
        const QByteArray now = readAll(target);
        if (now == complete) {
            ++tally.afterCommit;
            delay = std::max(1.0, delay / 2);
        } else if (now != kOldContent || !k.killed) {
            tally.wrong = QStringLiteral(
                              "after a run killed at %1 ms (or finished) %2 holds %3 "
                              "bytes, neither the old file nor the complete %4")
                              .arg(static_cast<int>(delay))
                              .arg(target)
                              .arg(now.size())
                              .arg(complete.size());
            return tally;
        } else if (k.killed && k.written >= minBytes) {
            ++tally.midWrite;
        } else {
            ++tally.beforeWrite;
            delay = delay * 1.6 + 5;
        }
    }
    return tally;
}

}  // namespace immap::testing
