// The app's last guard (GuardedApplication): an exception that escapes an event handler used to
// abort immap-lab with its C++ name ("Reason: std::bad_alloc"). Here handlers throw what the
// core can throw; the application must survive, say a plain reason in a dialog (never a class
// or function name), and go on delivering events. Its own main: the guard is the QApplication.
#include <QMessageBox>
#include <QTest>
#include <QTimer>
#include <new>
#include <stdexcept>

#include "GuardedApplication.h"

namespace {

// Throws from its event handler, as a slot or a paint that hits a limit would.
class Thrower : public QObject {
public:
    std::function<void()> what;
    bool event(QEvent* e) override {
        if (e->type() == QEvent::User) what();
        return QObject::event(e);
    }
};

QStringList dialogTexts() {
    QStringList out;
    for (QWidget* w : QApplication::topLevelWidgets())
        if (auto* b = qobject_cast<QMessageBox*>(w);
            b && b->objectName() == QLatin1String("errorDialog"))
            out << b->text();
    return out;
}

void closeDialogs() {
    for (QWidget* w : QApplication::topLevelWidgets())
        if (auto* b = qobject_cast<QMessageBox*>(w)) delete b;
}

}  // namespace

class TestGuardedApplication : public QObject {
    Q_OBJECT

private slots:
    void escapingExceptionsBecomePlainReasons_data() {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("want");
        QTest::addColumn<QString>("never");
        QTest::newRow("bad_alloc") << 0 << "not enough memory for the last action"
                                   << "bad_alloc";
        QTest::newRow("internal check") << 1 << "an internal check failed while the last action"
                                        << "RwSemModel";
        QTest::newRow("a user's reason") << 2 << "maps:3: reversed interval"
                                         << "runtime_error";
        QTest::newRow("not an exception") << 3 << "an internal check failed"
                                          << "std::";
    }

    void escapingExceptionsBecomePlainReasons() {
        QFETCH(int, kind);
        QFETCH(QString, want);
        QFETCH(QString, never);
        Thrower t;
        t.what = [kind] {
            switch (kind) {
                case 0:
                    throw std::bad_alloc();
                case 1:
                    throw std::logic_error("RwSemModel::acquire: requester 0 already holds it");
                case 2:
                    throw std::runtime_error("maps:3: reversed interval");
                default:
                    throw 42;
            }
        };
        QCoreApplication::postEvent(&t, new QEvent(QEvent::User));
        QCoreApplication::processEvents();
        const QStringList texts = dialogTexts();
        QCOMPARE(texts.size(), 1);
        QVERIFY2(texts[0].contains(want), qPrintable(texts[0]));
        QVERIFY2(!texts[0].contains(never) && !texts[0].contains("::"), qPrintable(texts[0]));
        closeDialogs();
        // The loop goes on: a later event is delivered.
        bool fired = false;
        QTimer::singleShot(0, [&] { fired = true; });
        QTRY_VERIFY(fired);
    }
};

int main(int argc, char** argv) {
    immap::gui::GuardedApplication app(argc, argv);
    TestGuardedApplication t;
    return QTest::qExec(&t, argc, argv);
}

#include "TestGuardedApplication.moc"
