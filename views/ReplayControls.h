#pragma once
// The replay tab's transport: which file and tree to show, back / play / forward, a scrubber
// over every event of the trace, the event at the cursor, and bookmarks with captions. It only
// shows state and emits intent; app/ moves the trace cursor.

#include <QWidget>
#include <cstdint>

class QComboBox;
class QLabel;
class QListWidget;
class QSlider;
class QToolButton;
class QPushButton;

namespace immap::views {

class ReplayControls : public QWidget {
    Q_OBJECT
public:
    explicit ReplayControls(QWidget* parent = nullptr);

    void setChoices(const QStringList& files, const QStringList& trees);
    void setPosition(qint64 position, qint64 count);
    void setEventText(const QString& text);
    void setPlaying(bool playing);
    void setBookmarks(const QStringList& items);
    QSlider* slider() const { return slider_; }
    QComboBox* files() const { return files_; }
    QComboBox* trees() const { return trees_; }
    QListWidget* bookmarks() const { return marks_; }
    // Play speeds, slowest first: one event per frame, then shares of the trace per second.
    QComboBox* speed() const { return speed_; }
    // The events one frame of play (kFrameMs) advances at speed `index` through `events`.
    static std::uint64_t stepPerFrame(int index, std::uint64_t events);
    static constexpr int kFrameMs = 40;
    static constexpr int kDefaultSpeed = 2;  // 1% of the trace per second
    QString eventText() const;

signals:
    void fileChosen(int index);
    void treeChosen(int index);
    void playToggled();
    void stepBack();
    void stepForward();
    void seek(qint64 position);
    void bookmarkRequested();
    void bookmarkRemoveRequested(int row);
    void bookmarkChosen(int row);

private:
    QComboBox* files_;
    QComboBox* trees_;
    QComboBox* speed_;
    QToolButton *back_, *play_, *forward_;
    QSlider* slider_;
    QLabel* position_;
    QLabel* event_;
    QListWidget* marks_;
    QPushButton *addMark_, *removeMark_;
    bool quiet_ = false;
};

}  // namespace immap::views
