#include "SnapshotCommand.h"

#include "CliCommand.h"
#include "InputErrors.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <cstdio>
#include <iostream>

#include "mapping/FileSummary.h"
#include "mapping/HostLoader.h"

namespace immap::cli {

using namespace immap::mapping;

namespace {

QJsonObject json(const FileSummary& s) {
    QJsonObject nodes, evidence;
    for (const auto& [node, n] : s.nodes)
        nodes[QString::number(node)] = static_cast<qint64>(n);
    for (int e = 0; e < kEvidenceKinds; ++e)
        if (s.evidence[static_cast<std::size_t>(e)])
            evidence[evidenceName(static_cast<Evidence>(e))] =
                static_cast<qint64>(s.evidence[static_cast<std::size_t>(e)]);
    QJsonArray heights;
    for (int h : s.splitHeights)
        heights.append(h);
    return {{"path", QString::fromStdString(s.file->path)},
            {"dev", QString::fromStdString(s.file->device())},
            {"inode", static_cast<qint64>(s.file->inode)},
            {"vmas", static_cast<qint64>(s.file->vmas.size())},
            {"processes", static_cast<qint64>(s.file->processes)},
            {"nodes", nodes},
            {"evidence", evidence},
            {"single_height", s.singleHeight},
            {"split_heights", heights}};
}

}  // namespace

int snapshotStats(const QStringList& args) {
    CliCommand p("snapshot stats",
                 "Which VMAs sit in which file's i_mmap, per NUMA node, with the trees' heights "
                 "and the evidence for each VMA's node.");
    p.addOption(
        {"topology", "Topology spec: host, xml:FILE, synthetic:DESC[;distances=...].", "SPEC"});
    p.addOption({"json", "Print JSON."});
    p.addPositional("SOURCE", "maps:FILE, snapshot:DIR|ARCHIVE, live, synthetic:libc?...");
    if (auto rc = p.parse(args)) return *rc;
    LoadedHost host;
    std::vector<FileSummary> files;
    const int status = reportingBadInput([&] {
        host = HostLoader::load(p.positionalArguments().first().toStdString(),
                                p.value("topology").toStdString());
        for (const MappedFile& f : host.mappings.files())
            files.push_back(FileSummary::of(f, *host.topology));
        return 0;
    });
    if (status) return status;
    printWarnings(host.snapshot.warnings);
    if (p.isSet("json")) {
        QJsonArray fileArray, skipped, warnings;
        for (const FileSummary& s : files)
            fileArray.append(json(s));
        for (const auto& s : host.mappings.skipped())
            skipped.append(QJsonObject{{"pid", static_cast<qint64>(s.pid)},
                                       {"reason", QString::fromStdString(s.reason)}});
        for (const std::string& w : host.snapshot.warnings)
            warnings.append(QString::fromStdString(w));
        const QJsonObject out{{"source", QString::fromStdString(host.source)},
                              {"topology", QString::fromStdString(host.topologyOrigin)},
                              {"nodes", static_cast<qint64>(host.topology->nodeCount())},
                              {"processes", static_cast<qint64>(host.mappings.processes().size())},
                              {"files", fileArray},
                              {"skipped", skipped},
                              {"warnings", warnings}};
        std::cout << QJsonDocument(out).toJson(QJsonDocument::Indented).toStdString();
        return 0;
    }
    std::printf(
        "%s: %zu processes, %zu skipped, %zu mapped files; topology: %s (%zu NUMA node%s)\n",
        host.source.c_str(), host.mappings.processes().size(), host.mappings.skipped().size(),
        files.size(), host.topologyOrigin.c_str(), host.topology->nodeCount(),
        host.topology->nodeCount() == 1 ? "" : "s");
    std::printf("%7s %6s %6s %-20s %-28s %s\n", "VMAs", "procs", "height", "split heights",
                "evidence", "path");
    for (const FileSummary& s : files) {
        std::string split, evidence;
        // Appended piece by piece: GCC 12 warns falsely (-Wrestrict) on ("" or ",") + string.
        for (int h : s.splitHeights) {
            if (!split.empty()) split += ',';
            split += std::to_string(h);
        }
        for (int e = 0; e < kEvidenceKinds; ++e) {
            if (!s.evidence[e]) continue;
            if (!evidence.empty()) evidence += ' ';
            evidence.append(evidenceName(static_cast<Evidence>(e)))
                .append("=")
                .append(std::to_string(s.evidence[e]));
        }
        if (split.size() > 20) split = split.substr(0, 17) + "...";
        std::printf("%7zu %6zu %6d %-20s %-28s %s\n", s.file->vmas.size(), s.file->processes,
                    s.singleHeight, split.c_str(), evidence.c_str(), s.file->path.c_str());
    }
    for (const auto& s : host.mappings.skipped())
        std::printf("skipped pid %lld: %s\n", static_cast<long long>(s.pid), s.reason.c_str());
    return 0;
}

}  // namespace immap::cli
