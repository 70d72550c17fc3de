// VmaTableModel: passes QAbstractItemModelTester through resets, shows the VMA's fields, and
// sorts numbers as numbers behind the proxy.
#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTest>

#include "Suites.h"
#include "session/ProcessRecipe.h"
#include "session/TreeSet.h"
#include "topology/Topology.h"
#include "views/VmaTableModel.h"
#include "views/VmaTableView.h"

using namespace immap;

namespace {

struct Fixture {
    topology::Topology topo = topology::Topology::fromSpec("synthetic:numa:2 core:2 pu:1");
    mapping::HostMappings host;
    mapping::MappedFile file;
    std::unique_ptr<session::TreeSet> set;
    Fixture() {
        file.path = "/lib/x.so";
        for (std::int64_t pid : {100, 9, 10})
            file.vmas.push_back(session::ExecRecipe::vma(pid, int(pid % 2), 0x26, 0x156, "r-xp"));
        set = std::make_unique<session::TreeSet>(
            file, host, topo, mapping::Policy{mapping::Policy::Kind::SplitTrees, 0});
    }
};

}  // namespace

class TestVmaTableModel : public QObject {
    Q_OBJECT
private slots:
    void passesTheModelTester() {
        Fixture f;
        views::VmaTableModel m;
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        m.setTreeSet(f.set.get());
        QCOMPARE(m.rowCount(), 3);
        QCOMPARE(m.columnCount(), int(views::VmaTableModel::ColumnCount));
        f.set->insert(session::ExecRecipe::vma(7, 1, 0, 0x26, "r--p"), "new");
        m.refresh();
        QCOMPARE(m.rowCount(), 4);
        f.set->remove(0);
        m.refresh();
        QCOMPARE(m.rowCount(), 3);
        QCOMPARE(m.rowOfId(0), -1);
        m.setTreeSet(nullptr);
        QCOMPARE(m.rowCount(), 0);
    }

    void showsTheVmaFields() {
        Fixture f;
        views::VmaTableModel m;
        m.setTreeSet(f.set.get());
        const int row = m.rowOfId(0);  // pid 100
        auto cell = [&](int col) { return m.index(row, col).data().toString(); };
        QCOMPARE(cell(views::VmaTableModel::Pid), QStringLiteral("100"));
        QCOMPARE(cell(views::VmaTableModel::Comm), QStringLiteral("?"));  // not a snapshot process
        QCOMPARE(cell(views::VmaTableModel::Pgoff), QStringLiteral("[0x26, 0x17b]"));
        QCOMPARE(cell(views::VmaTableModel::Perms), QStringLiteral("r-xp"));
        QCOMPARE(cell(views::VmaTableModel::Node), QStringLiteral("0"));
        QCOMPARE(cell(views::VmaTableModel::Evidence), QStringLiteral("last_cpu"));
        const auto& v = f.set->entry(0).vma;
        QCOMPARE(cell(views::VmaTableModel::Address),
                 QString::number(v.start, 16) + "-" + QString::number(v.end, 16));
        QCOMPARE(m.index(row, 0).data(views::VmaTableModel::kIdRole).toInt(), 0);
    }

    void proxySortsPidsAsNumbersAndFilters() {
        Fixture f;
        views::VmaTableView view;
        QAbstractItemModelTester tester(view.proxy(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        view.model()->setTreeSet(f.set.get());
        view.proxy()->sort(views::VmaTableModel::Pid, Qt::AscendingOrder);
        QStringList pids;
        for (int r = 0; r < view.proxy()->rowCount(); ++r)
            pids << view.proxy()->index(r, 0).data().toString();
        QCOMPARE(pids, (QStringList{"9", "10", "100"}));  // text order would be 10, 100, 9
        view.filter()->setText(QStringLiteral("100"));
        QCOMPARE(view.proxy()->rowCount(), 1);
        view.filter()->clear();
        QSignalSpy spy(&view, &views::VmaTableView::idSelected);
        view.selectId(2);  // programmatic selection is quiet
        QCOMPARE(spy.count(), 0);
        QCOMPARE(view.selectedId(), 2);
        view.table()->selectRow(0);  // the user's is not: pid 9 is entry 1
        QCOMPARE(spy.count(), 1);
        QCOMPARE(spy.last().at(0).toInt(), 1);
    }
};

IMMAP_TEST_SUITE(TestVmaTableModel);
#include "TestVmaTableModel.moc"
