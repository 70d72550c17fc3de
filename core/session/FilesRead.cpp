#include "session/FilesRead.h"

#include <QFileInfo>
#include <exception>

#include "io/InputFile.h"
#include "session/Scenario.h"
#include "trace/Bookmarks.h"

namespace immap::session {

void FilesRead::addFile(const std::string& path) {
    if (!path.empty()) files_.push_back(path);
}

void FilesRead::addSpec(const std::string& spec) {
    if (spec.rfind("trace:", 0) == 0) return addTrace(spec.substr(6));
    addFile(io::InputFile::fileOfSpec(spec));
}

void FilesRead::addTrace(const std::string& path) {
    if (path.empty()) return;
    addFile(path);
    addFile(trace::Bookmarks::sidecarPath(path));
}

void FilesRead::addScenario(const std::string& path) {
    addFile(path);
    Scenario s;
    try {
        s = Scenario::load(path);
    } catch (const std::exception&) {
        return;
    }
    const std::string dir = QFileInfo(QString::fromStdString(path)).absolutePath().toStdString();
    if (!s.recipePath.empty()) addFile(Scenario::resolvePath(s.recipePath, dir));
    addSpec(s.topologySpec(dir));
    addSpec(s.sourceSpec(dir));
}

}  // namespace immap::session
