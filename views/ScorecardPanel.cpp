#include "ScorecardPanel.h"
#include "ScorecardModel.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

namespace immap::views {

ScorecardPanel::ScorecardPanel(QWidget* parent)
    : QWidget(parent), model_(new ScorecardModel(this)) {
    auto* intro = new QLabel(
        tr("The model against every published measurement, each on a machine shape built from "
           "public data on its CPU. Model: the default parameters (the seeds' mean). Band: "
           "10-90% over parameter sets drawn across their plausible ranges. A hit is a "
           "published figure inside the band; no parameter was set from these figures."),
        this);
    intro->setWordWrap(true);
    summary_ = new QLabel(this);
    summary_->setObjectName(QStringLiteral("scorecardSummary"));
    summary_->setWordWrap(true);
    table_ = new QTableView(this);
    table_->setModel(model_);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setWordWrap(true);
    table_->verticalHeader()->setVisible(false);
    table_->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    table_->horizontalHeader()->setSectionResizeMode(ScorecardModel::Claim, QHeaderView::Stretch);
    table_->horizontalHeader()->setSectionResizeMode(ScorecardModel::Verdict,
                                                     QHeaderView::ResizeToContents);
    for (int c : {ScorecardModel::Machine, ScorecardModel::Published, ScorecardModel::Model,
                  ScorecardModel::Band})
        table_->horizontalHeader()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    detail_ = new QLabel(this);
    detail_->setObjectName(QStringLiteral("scorecardDetail"));
    detail_->setWordWrap(true);
    detail_->setTextInteractionFlags(Qt::TextBrowserInteraction);
    detail_->setOpenExternalLinks(true);
    detail_->setText(tr("Select a row for its machine shape, assumptions and source."));

    run_ = new QPushButton(tr("Run"), this);
    run_->setShortcut(QKeySequence(tr("Ctrl+R")));
    run_->setToolTip(tr("Run every observation on its machine shape (Ctrl+R)"));
    cancel_ = new QPushButton(tr("Cancel"), this);
    cancel_->setEnabled(false);
    save_ = new QPushButton(tr("Save…"), this);
    save_->setShortcut(QKeySequence::Save);
    save_->setToolTip(tr("Save the scorecard as Markdown (.md) or JSON (.json) (Ctrl+S)"));
    save_->setEnabled(false);
    progress_ = new QProgressBar(this);
    progress_->setRange(0, 1);
    progress_->setValue(0);

    auto* buttons = new QHBoxLayout;
    buttons->addWidget(run_);
    buttons->addWidget(cancel_);
    buttons->addWidget(progress_, 1);
    buttons->addWidget(save_);
    auto* box = new QVBoxLayout(this);
    box->addWidget(intro);
    box->addWidget(summary_);
    box->addWidget(table_, 1);
    box->addWidget(detail_);
    box->addLayout(buttons);

    connect(run_, &QPushButton::clicked, this, &ScorecardPanel::runRequested);
    connect(cancel_, &QPushButton::clicked, this, &ScorecardPanel::cancelRequested);
    connect(save_, &QPushButton::clicked, this, &ScorecardPanel::saveRequested);
    connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &ScorecardPanel::showDetail);
    connect(model_, &QAbstractItemModel::modelReset, this, &ScorecardPanel::showDetail);
}

void ScorecardPanel::showDetail() {
    const QModelIndex i = table_->currentIndex();
    if (!i.isValid()) return;
    const sim::Observation& o = *model_->lines()[static_cast<std::size_t>(i.row())].observation;
    const QString src = QString::fromStdString(o.source).toHtmlEscaped();
    // The source's address is a link; its words stay as written.
    QString linked = src;
    if (const qsizetype at = src.indexOf(QLatin1String("http")); at >= 0) {
        const qsizetype end = src.indexOf(QLatin1Char(' '), at);
        QString url = src.mid(at, end < 0 ? -1 : end - at);
        while (url.endsWith(QLatin1Char(')')) || url.endsWith(QLatin1Char('.')) ||
               url.endsWith(QLatin1Char(',')) || url.endsWith(QLatin1Char(';')))
            url.chop(1);  // the sentence's punctuation, not the address's
        linked.replace(url, QStringLiteral("<a href=\"%1\">%1</a>").arg(url));
    }
    detail_->setText(tr("<b>%1</b> (%2)<br>Shape: <tt>%3</tt><br>Assumptions: %4<br>Source: %5")
                         .arg(QString::fromStdString(o.claim).toHtmlEscaped(),
                              QString::fromStdString(o.machine).toHtmlEscaped(),
                              QString::fromStdString(o.topology).toHtmlEscaped(),
                              QString::fromStdString(o.assumptions).toHtmlEscaped(), linked));
}

void ScorecardPanel::setRunning(bool running) {
    run_->setEnabled(!running);
    cancel_->setEnabled(running);
    save_->setEnabled(!running && model_->ran());
}

void ScorecardPanel::setProgress(int done, int total) {
    progress_->setRange(0, std::max(1, total));
    progress_->setValue(done);
}

void ScorecardPanel::setSummary(const QString& text) {
    summary_->setText(text);
}

}  // namespace immap::views
