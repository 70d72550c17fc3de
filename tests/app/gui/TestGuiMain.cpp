// `immap-lab --help` and `--version` on a machine with no display at all (a server, CI, ssh):
// they are answered before any window exists, so they print and exit 0 instead of aborting in
// Qt's platform plugin. A bad option is a usage error: exit status 2, hidden ones too.
#include <QFile>
#include <QProcess>
#include <QProcessEnvironment>
#include <QTemporaryDir>
#include <QTest>

class TestGuiMain : public QObject {
    Q_OBJECT

private slots:
    void helpAndVersionNeedNoDisplay_data() {
        QTest::addColumn<QString>("flag");
        QTest::addColumn<QByteArray>("expected");
        QTest::newRow("--help") << "--help" << QByteArray("Usage: immap-lab [options]");
        QTest::newRow("-h") << "-h" << QByteArray("Usage: immap-lab [options]");
        QTest::newRow("--version") << "--version" << QByteArray("immap-lab " IMMAP_VERSION "\n");
        QTest::newRow("-v") << "-v" << QByteArray("immap-lab " IMMAP_VERSION "\n");
    }
    void helpAndVersionNeedNoDisplay() {
        QFETCH(QString, flag);
        QFETCH(QByteArray, expected);
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (const char* name : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"})
            env.remove(name);
        QProcess p;
        p.setProcessEnvironment(env);
        p.start(IMMAP_GUI, {flag});
        QVERIFY(p.waitForFinished(60000));
        const QByteArray out = p.readAllStandardOutput(), err = p.readAllStandardError();
        QVERIFY2(p.exitStatus() == QProcess::NormalExit, err.constData());
        QVERIFY2(p.exitCode() == 0, err.constData());
        QVERIFY2(out.startsWith(expected), out.constData());
    }

    // A usage error exits 2 with its reason, as the CLI's do, also beside --help.
    void unknownOptionExitsTwo_data() {
        QTest::addColumn<QStringList>("args");
        QTest::newRow("alone") << QStringList{"--bogus"};
        QTest::newRow("with --help") << QStringList{"--help", "--bogus"};
    }
    void unknownOptionExitsTwo() {
        QFETCH(QStringList, args);
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("QT_QPA_PLATFORM", "offscreen");
        QProcess p;
        p.setProcessEnvironment(env);
        p.start(IMMAP_GUI, args);
        QVERIFY(p.waitForFinished(60000));
        const QByteArray err = p.readAllStandardError();
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QCOMPARE(p.exitCode(), 2);
        QVERIFY2(err.contains("Unknown option 'bogus'"), err.constData());
    }

    // The hidden batch options are checked like every other (issue 47, point 7): "abc" copies
    // recorded 1 copy without a word. Refused before anything is loaded or written.
    void hiddenOptionsAreChecked_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("reason");
        const QString copies = QStringLiteral(
            "--record-copies takes a whole number from 1 to "
            "100000");
        const QString ms = QStringLiteral("--record-ms takes a whole number of milliseconds");
        QTest::newRow("copies abc") << QStringList{"--record-copies", "abc"} << copies;
        QTest::newRow("copies 0") << QStringList{"--record-copies", "0"} << copies;
        QTest::newRow("copies too many") << QStringList{"--record-copies", "100001"} << copies;
        QTest::newRow("ms 1e300") << QStringList{"--record-ms", "1e300"} << ms;
        QTest::newRow("ms negative") << QStringList{"--record-ms", "-5"} << ms;
    }
    void hiddenOptionsAreChecked() {
        QFETCH(QStringList, args);
        QFETCH(QString, reason);
        QTemporaryDir dir;
        const QString trace = dir.filePath(QStringLiteral("x.trace"));
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("QT_QPA_PLATFORM", "offscreen");
        QProcess p;
        p.setProcessEnvironment(env);
        p.start(IMMAP_GUI, QStringList{"--record-trace", trace} + args);
        QVERIFY(p.waitForFinished(60000));
        const QByteArray err = p.readAllStandardError();
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QCOMPARE(p.exitCode(), 2);
        QVERIFY2(err.contains(reason.toUtf8()), err.constData());
        QVERIFY(!QFile::exists(trace));
    }
};

QTEST_GUILESS_MAIN(TestGuiMain)
#include "TestGuiMain.moc"
