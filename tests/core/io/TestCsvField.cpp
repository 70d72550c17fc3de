// CSV as RFC 4180 has it, everywhere the programs write CSV: a field holding a comma, a quote, a
// line break or a NUL reads back whole through an independent reader (tests/support/CsvReader),
// and the row keeps as many fields as its header; a plain field is written as it always was.
#include <QTest>
#include <string>
#include <vector>

#include "CsvReader.h"
#include "Suites.h"
#include "io/CsvField.h"
#include "sim/SweepRow.h"

using namespace immap;
using test::CsvReader;

namespace {

const std::vector<std::string>& hostileNames() {
    static const std::vector<std::string> names{
        "/opt/a,b/libc.so.6",
        "say \"hi\"",
        "two\nlines",
        "cr\r\nlf",
        std::string("nul\0x", 5),
        "\"",
        ",",
        "",
        "  spaced  ",
        "\"a\",\"b\"",
    };
    return names;
}

}  // namespace

class TestCsvField : public QObject {
    Q_OBJECT

private slots:
    void plainFieldsAreUnchanged() {
        for (const char* plain :
             {"single", "split-locks", "btree+split-trees", "/lib/libc.so.6", "12.5", "a b"})
            QCOMPARE(io::CsvField::of(plain), std::string(plain));
    }

    void everyHostileFieldReadsBackWhole() {
        std::string line;
        for (std::size_t i = 0; i < hostileNames().size(); ++i) {
            if (i > 0) line += ',';
            line += io::CsvField::of(hostileNames()[i]);
        }
        line += "\n";
        std::string why;
        const auto rows = CsvReader::rows(line, &why);
        QVERIFY2(why.empty(), why.c_str());
        QCOMPARE(rows.size(), std::size_t{1});
        QCOMPARE(rows[0], hostileNames());
    }

    // The sweep's CSV (immap sweep --csv, sweep merge, the Throughput tab's export): a policy
    // name is the only text in a row.
    void sweepRowsKeepTheirFields() {
        std::vector<sim::SweepRow> rows;
        for (const std::string& name : hostileNames()) {
            sim::SweepRow r;
            r.policy = name;
            r.copies = 8;
            r.execsPerSecond = 1000;
            rows.push_back(r);
        }
        std::string why;
        const auto table = CsvReader::rows(sim::SweepRow::toCsv(rows), &why);
        QVERIFY2(why.empty(), why.c_str());
        QCOMPARE(table.size(), rows.size() + 1);
        for (std::size_t i = 1; i < table.size(); ++i) {
            QCOMPARE(table[i].size(), table[0].size());
            QCOMPARE(table[i][0], rows[i - 1].policy);
            QCOMPARE(table[i][1], std::string("8"));
        }
    }
};

IMMAP_TEST_SUITE(TestCsvField);
#include "TestCsvField.moc"
