// main() for every test executable: `EXE [ClassName] [Qt Test options]`.
#include <QCoreApplication>
#include <QDir>
#ifdef IMMAP_GUI_TESTS
#include <QApplication>
#endif
#include <QTest>
#include <cstdio>
#include <cstring>

#include "Suites.h"

namespace immap::test {

std::vector<SuiteEntry>& suites() {
    static std::vector<SuiteEntry> all;
    return all;
}

}  // namespace immap::test

int main(int argc, char** argv) {
#ifdef IMMAP_GUI_TESTS
    // Widget suites need a QApplication (run offscreen: QT_QPA_PLATFORM=offscreen).
    QApplication app(argc, argv);
#else
    QCoreApplication app(argc, argv);
#endif
    // The tests' paths to the checkout and the programs are relative to this executable's
    // directory (tests/CMakeLists.txt, immap_test_paths), where CTest starts it anyway.
    QDir::setCurrent(QCoreApplication::applicationDirPath());
    const char* only = argc > 1 && argv[1][0] != '-' ? argv[1] : nullptr;
    // Qt Test sees the program name plus the options after the class name.
    std::vector<char*> qtArgs{argv[0]};
    for (int i = only ? 2 : 1; i < argc; ++i)
        qtArgs.push_back(argv[i]);
    int failed = 0;
    bool found = false;
    for (const auto& s : immap::test::suites()) {
        if (only && s.name != only) continue;
        found = true;
        auto suite = s.make();
        failed += QTest::qExec(suite.get(), static_cast<int>(qtArgs.size()), qtArgs.data());
    }
    if (only && !found) {
        std::fprintf(stderr, "no test class named %s\n", only);
        return 2;
    }
    return failed == 0 ? 0 : 1;
}
