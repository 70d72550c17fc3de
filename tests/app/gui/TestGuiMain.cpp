// `immap-lab --help` and `--version` on a machine with no display at all (a server, CI, ssh):
// they are answered before any window exists, so they print and exit 0 instead of aborting in
// Qt's platform plugin. A bad option is a usage error: exit status 2.
#include <QProcess>
#include <QProcessEnvironment>
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
};

QTEST_GUILESS_MAIN(TestGuiMain)
#include "TestGuiMain.moc"
