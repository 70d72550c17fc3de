// The parameters panel: one editor per cost-model parameter showing its value, edits and
// resets change the emitted parameters, and every tooltip carries the documented source.
#include <QDoubleSpinBox>
#include <QLabel>
#include <QSignalSpy>
#include <QTest>
#include <QToolButton>

#include "Suites.h"
#include "views/ParamsPanel.h"

using namespace immap;

class TestParamsPanel : public QObject {
    Q_OBJECT

private slots:
    void editsResetsAndTooltips() {
        views::ParamsPanel panel;
        for (const auto& info : sim::CostParams::table()) {
            QDoubleSpinBox* e = panel.editor(QString::fromLatin1(info.name));
            QVERIFY2(e, info.name);
            QCOMPARE(e->value(), info.defaultValue);
            QVERIFY(e->toolTip().contains(QString::fromUtf8(info.source).left(20).toHtmlEscaped()));
        }
        QSignalSpy changed(&panel, &views::ParamsPanel::paramsChanged);
        panel.editor("mem_local_ns")->setValue(80);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(panel.params().memLocalNs, 80.0);
        panel.resetButton("mem_local_ns")->click();
        QCOMPARE(panel.params().memLocalNs, sim::CostParams{}.memLocalNs);
        QCOMPARE(panel.editor("mem_local_ns")->value(), sim::CostParams{}.memLocalNs);
        QCOMPARE(changed.count(), 2);
        sim::CostParams p;
        p.treeOpNs = 3;
        panel.setParams(p);
        QCOMPARE(panel.editor("tree_op_ns")->value(), 3.0);
        QCOMPARE(changed.count(), 2);  // showing values is not an edit
    }

    void unitsAreUtf8() {
        // "lines per µs" once read as Latin-1 showed as "lines per Âµs".
        views::ParamsPanel panel;
        const QWidget* row = panel.editor("work_lines_per_us")->parentWidget();
        bool found = false;
        for (const QLabel* l : row->findChildren<QLabel*>()) {
            QVERIFY2(!l->text().contains(QChar(0xC2)), qPrintable(l->text()));
            found = found || l->text() == QString::fromUtf8("lines per \u00b5s");
        }
        QVERIFY(found);
    }
};

IMMAP_TEST_SUITE(TestParamsPanel);
#include "TestParamsPanel.moc"
