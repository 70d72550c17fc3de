#pragma once
// Several Qt Test classes in one executable per folder; CTest runs each class as its own test
// (`EXE ClassName`), so a failure names the class and suites can run alone.

#include <QObject>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace immap::test {

using SuiteFactory = std::function<std::unique_ptr<QObject>()>;

struct SuiteEntry {
    std::string name;
    SuiteFactory make;
};

std::vector<SuiteEntry>& suites();

struct RegisterSuite {
    RegisterSuite(const char* name, SuiteFactory make) {
        suites().push_back({name, std::move(make)});
    }
};

}  // namespace immap::test

#define IMMAP_TEST_SUITE(Class)                                 \
    static const immap::test::RegisterSuite immapSuite_##Class( \
        #Class, [] { return std::unique_ptr<QObject>(new Class); })
