#include "SnapshotLoader.h"

#include <archive.h>
#include <archive_entry.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>

#include "ParseError.h"
#include "io/CutLine.h"
#include "io/InputFile.h"
#include "limits/Cancelled.h"

namespace immap::procfs {

namespace fs = std::filesystem;

namespace {

// The files of one process, as raw text, before parsing.
struct RawProcess {
    std::string maps, numaMaps, status, stat;
    bool hasMaps = false, hasNumaMaps = false, hasStatus = false, hasStat = false;
    std::string readError;  // set when a file existed but could not be read
};

// Canonical decimal only, as /proc names them: "0100" beside "100" would be the same pid twice.
bool parsePid(std::string_view s, std::int64_t& pid) {
    if (s.empty() || s.size() > 18 || (s.size() > 1 && s.front() == '0')) return false;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), pid);
    return ec == std::errc{} && p == s.data() + s.size() && pid >= 0;
}

// Reads a whole file (io::InputFile: regular files only, capped at kMaxFileBytes, read with
// read(2) since /proc files report size 0). Empty on success, else the reason; ENOENT is
// reported through `missing` so a caller can tell an absent optional file. With `noFollow`, a
// symbolic link is not opened: a captured snapshot holds files, and a link could lead out of it.
std::string readFile(const std::string& path, std::string& out, bool noFollow = false,
                     bool* missing = nullptr) {
    io::InputFile f(path, SnapshotLoader::kMaxFileBytes, "a file in a snapshot", {noFollow});
    if (missing) *missing = f.error() == ENOENT || f.error() == ESRCH;
    if (f.ok() && f.readAll(out)) return {};
    // A process that exits while it is read loses its files: say so, not "no such file".
    if (f.error() == ENOENT || f.error() == ESRCH) return "vanished";
    return f.reason();
}

// Parses one process; on any ParseError the process is skipped with the error's message.
// One interner per snapshot: every process's libc lines share one pathname.
void addProcess(Snapshot& snap, std::int64_t pid, const RawProcess& raw, const std::string& dir,
                PathInterner& paths) {
    const std::string base = dir.empty() ? std::to_string(pid) : dir;
    if (!raw.readError.empty()) {
        snap.skipped.push_back({pid, raw.readError});
        return;
    }
    if (!raw.hasMaps) {
        snap.skipped.push_back({pid, base + ": no maps file"});
        return;
    }
    ProcessSnapshot p;
    p.pid = pid;
    try {
        MapsParser::parse(raw.maps, base + "/maps", p.maps, paths);
        if (raw.hasNumaMaps) p.numaMaps = NumaMapsParser::parse(raw.numaMaps, base + "/numa_maps");
        if (raw.hasStatus) p.status = StatusParser::parse(raw.status, base + "/status");
        if (raw.hasStat) p.stat = StatParser::parse(raw.stat, base + "/stat");
    } catch (const ParseError& e) {
        snap.skipped.push_back({pid, e.what()});
        return;
    }
    if (p.maps.empty()) {
        snap.skipped.push_back({pid, base + ": no mappings (a kernel thread, or exiting)"});
        return;
    }
    for (const auto& [text, name] : {std::pair{&raw.maps, "/maps"},
                                     {&raw.numaMaps, "/numa_maps"},
                                     {&raw.status, "/status"},
                                     {&raw.stat, "/stat"}})
        if (std::string w = io::CutLine::check(*text, base + name); !w.empty())
            snap.warnings.push_back(std::move(w));
    if (p.status && !p.status->name.empty()) {
        p.comm = p.status->name;
    } else if (p.stat) {
        p.comm = p.stat->comm;
    } else {
        p.comm = "?";
    }
    snap.processes.push_back(std::move(p));
}

// Reads PID/{maps,numa_maps,status,stat} under dir; a missing maps is recorded, not thrown.
RawProcess readProcessDir(const std::string& dir, bool noFollow = false) {
    RawProcess raw;
    struct Want {
        const char* name;
        std::string* text;
        bool* has;
    };
    const Want wants[] = {{"maps", &raw.maps, &raw.hasMaps},
                          {"numa_maps", &raw.numaMaps, &raw.hasNumaMaps},
                          {"status", &raw.status, &raw.hasStatus},
                          {"stat", &raw.stat, &raw.hasStat}};
    for (const Want& w : wants) {
        bool missing = false;
        const std::string why = readFile(dir + "/" + w.name, *w.text, noFollow, &missing);
        if (why.empty()) {
            *w.has = true;
        } else if (!missing || std::string_view(w.name) == "maps") {
            // A vanished process loses its maps too: report that, not a missing file.
            if (missing && std::string_view(w.name) == "maps") {
                std::error_code ec;
                if (fs::exists(dir, ec)) continue;  // the directory is there: maps is missing
            }
            raw.readError = dir + "/" + w.name + ": " + why;
            return raw;
        }
    }
    return raw;
}

void sortSnapshot(Snapshot& s) {
    std::sort(s.processes.begin(), s.processes.end(),
              [](const ProcessSnapshot& a, const ProcessSnapshot& b) { return a.pid < b.pid; });
    std::sort(s.skipped.begin(), s.skipped.end(),
              [](const SkippedProcess& a, const SkippedProcess& b) { return a.pid < b.pid; });
}

Snapshot loadProcTree(const std::string& root, bool live, const std::atomic<bool>* cancel) {
    std::error_code ec;
    if (!fs::is_directory(root, ec))
        throw ParseError(root, 0, ec ? ec.message() : "not a directory");
    Snapshot snap;
    snap.source = live ? "live " + root : root;
    std::vector<std::int64_t> pids;
    fs::directory_iterator it(root, ec), end;
    if (ec) throw ParseError(root, 0, ec.message());
    for (; it != end; it.increment(ec)) {
        if (ec) throw ParseError(root, 0, ec.message());
        std::int64_t pid;
        if (!parsePid(it->path().filename().string(), pid)) continue;
        // A captured snapshot is what its directory holds: a linked pid directory could loop or
        // lead anywhere on this host (/proc's own pid directories are never links).
        if (!live && it->is_symlink(ec)) {
            snap.skipped.push_back({pid, it->path().string() + ": a symbolic link, not followed"});
            continue;
        }
        pids.push_back(pid);
    }
    // In pid order, so that the warnings addProcess records are too.
    std::sort(pids.begin(), pids.end());
    PathInterner paths;
    for (std::int64_t pid : pids) {
        limits::Cancelled::check(cancel);
        const std::string dir = root + "/" + std::to_string(pid);
        addProcess(snap, pid, readProcessDir(dir, !live), dir, paths);
    }
    if (!live) {
        // Optional, and a link is not followed (as for the pid files); but one that is there and
        // cannot be read (a FIFO, a device, too large) is an error: silently using another
        // topology would be a wrong answer.
        io::InputFile f(root + "/topology.xml", SnapshotLoader::kMaxFileBytes, "a topology XML",
                        {true});
        std::string xml;
        if (f.ok() && f.readAll(xml))
            snap.topologyXml = std::move(xml);
        else if (f.error() != ENOENT && f.error() != ELOOP)
            throw ParseError(root + "/topology.xml", 0, f.reason());
    }
    sortSnapshot(snap);
    return snap;
}

}  // namespace

Snapshot SnapshotLoader::loadDirectory(const std::string& dir, const std::atomic<bool>* cancel) {
    return loadProcTree(dir, false, cancel);
}

Snapshot SnapshotLoader::loadLive(const std::string& procRoot, const std::atomic<bool>* cancel) {
    return loadProcTree(procRoot, true, cancel);
}

Snapshot SnapshotLoader::loadMapsFile(const std::string& path) {
    std::string text;
    bool missing = false;
    if (std::string why = readFile(path, text, false, &missing); !why.empty())
        throw ParseError(path, 0, missing ? "no such file" : why);
    const fs::path p(path);
    const std::string dir = p.parent_path().empty() ? "." : p.parent_path().string();
    Snapshot snap;
    snap.source = path;
    ProcessSnapshot proc;
    parsePid(fs::absolute(p).parent_path().filename().string(), proc.pid);
    proc.maps = MapsParser::parse(text, path);  // throws: this file is the whole source
    if (std::string w = io::CutLine::check(text, path); !w.empty())
        snap.warnings.push_back(std::move(w));
    // A file named maps sits in a /proc-like PID directory: use its siblings when they parse.
    if (p.filename() == "maps") {
        RawProcess raw = readProcessDir(dir);
        try {
            if (raw.hasNumaMaps)
                proc.numaMaps = NumaMapsParser::parse(raw.numaMaps, dir + "/numa_maps");
            if (raw.hasStatus) proc.status = StatusParser::parse(raw.status, dir + "/status");
            if (raw.hasStat) proc.stat = StatParser::parse(raw.stat, dir + "/stat");
            for (const auto& [text, name] : {std::pair{&raw.numaMaps, "/numa_maps"},
                                             {&raw.status, "/status"},
                                             {&raw.stat, "/stat"}})
                if (std::string w = io::CutLine::check(*text, dir + name); !w.empty())
                    snap.warnings.push_back(std::move(w));
        } catch (const ParseError&) {
            proc.numaMaps.clear();  // best-effort extras: the maps file stands alone
            proc.status.reset();
            proc.stat.reset();
        }
    }
    proc.comm = proc.status && !proc.status->name.empty() ? proc.status->name
                : proc.stat                               ? proc.stat->comm
                                                          : p.filename().string();
    snap.processes.push_back(std::move(proc));
    return snap;
}

Snapshot SnapshotLoader::loadArchive(const std::string& path, const std::atomic<bool>* cancel) {
    std::unique_ptr<archive, decltype(&archive_read_free)> a(archive_read_new(), archive_read_free);
    archive_read_support_filter_all(a.get());
    archive_read_support_format_all(a.get());
    // Through InputFile: a FIFO or device given as an archive is refused, not read forever.
    io::InputFile in(path, kMaxArchiveBytes, "a snapshot archive");
    if (!in.ok()) throw ParseError(path, 0, in.reason());
    if (archive_read_open_fd(a.get(), in.fd(), 1 << 16) != ARCHIVE_OK)
        throw ParseError(
            path, 0,
            archive_error_string(a.get()) ? archive_error_string(a.get()) : "cannot open archive");
    const std::string totalCap = "unpacks to more than the " +
                                 std::to_string(kMaxArchiveBytes >> 30) +
                                 " GiB limit for a snapshot archive's contents";
    // Bytes unpacked so far, entries stepped over included (filter 0 is the last one applied).
    auto unpacked = [&] {
        const la_int64_t n = archive_filter_bytes(a.get(), 0);
        return n > 0 ? static_cast<std::uint64_t>(n) : 0;
    };
    auto corrupt = [&](const char* what) {
        return ParseError(
            path, 0,
            std::string("corrupt archive: ") +
                (archive_error_string(a.get()) ? archive_error_string(a.get()) : what));
    };
    std::map<std::int64_t, RawProcess> procs;
    std::vector<std::string> warnings;
    std::string topology;
    std::size_t topologyDepth = SIZE_MAX;
    // The last entry, and its pid when it is a process's file: a cut archive may have lost that
    // process's later files.
    std::string lastName;
    std::int64_t lastPid = -1;
    bool cut = false;
    archive_entry* entry = nullptr;
    for (;;) {
        limits::Cancelled::check(cancel);
        // Step over the rest of the entry first, so that `before` is where its data ends.
        if (entry && archive_read_data_skip(a.get()) < ARCHIVE_WARN)
            throw corrupt("unreadable data");
        const la_int64_t before = archive_filter_bytes(a.get(), 0);
        const int r = archive_read_next_header(a.get(), &entry);
        if (r == ARCHIVE_EOF) {
            // libarchive takes a tar that stops at a member's end for a whole one; a whole tar
            // ends in zero blocks, which the reader consumes, so nothing consumed means no marker.
            cut = (archive_format(a.get()) & ARCHIVE_FORMAT_BASE_MASK) == ARCHIVE_FORMAT_TAR &&
                  archive_filter_bytes(a.get(), 0) == before && !lastName.empty();
            break;
        }
        if (r < ARCHIVE_WARN) throw corrupt("unreadable header");
        const char* rawName = archive_entry_pathname(entry);
        const std::string name = rawName ? rawName : "";
        if (unpacked() > kMaxArchiveBytes ||
            (archive_entry_size_is_set(entry) &&
             unpacked() + static_cast<std::uint64_t>(
                              std::max<la_int64_t>(archive_entry_size(entry), 0)) >
                 kMaxArchiveBytes))
            throw ParseError(path, 0, totalCap + " (at entry '" + name.substr(0, 60) + "')");
        // Refuse anything that could point outside the snapshot's root.
        if (name.empty() || name.front() == '/')
            throw ParseError(path, 0, "entry '" + name.substr(0, 60) + "' has an absolute path");
        std::vector<std::string_view> parts;
        for (std::size_t i = 0; i <= name.size();) {
            std::size_t j = name.find('/', i);
            if (j == std::string::npos) j = name.size();
            const std::string_view part(name.data() + i, j - i);
            if (part == "..")
                throw ParseError(path, 0,
                                 "entry '" + name.substr(0, 60) + "' escapes the archive root");
            if (!part.empty() && part != ".") parts.push_back(part);
            i = j + 1;
        }
        if (parts.empty()) continue;
        lastName = name;
        lastPid = -1;
        const std::string_view file = parts.back();
        const bool isTopology = file == "topology.xml";
        std::int64_t pid = -1;
        const bool isProcFile =
            parts.size() >= 2 && parsePid(parts[parts.size() - 2], pid) &&
            (file == "maps" || file == "numa_maps" || file == "status" || file == "stat");
        const int type = archive_entry_filetype(entry);
        if (archive_entry_hardlink(entry) || (type != AE_IFREG && type != AE_IFDIR)) {
            // A link or a special entry has no text of its own here, and a link could lead out of
            // the snapshot: it is not read, and not dropped silently either.
            const std::string what = std::string(archive_entry_hardlink(entry) ? "a hard link"
                                                 : type == AE_IFLNK            ? "a symbolic link"
                                                                    : "not a regular file") +
                                     "; archives are read as regular files only";
            const std::string where = path + ": entry '" + name.substr(0, 60) + "': ";
            std::int64_t dirPid = -1;
            if (isProcFile || (parts.size() >= 1 && parsePid(file, dirPid))) {
                RawProcess& raw = procs[isProcFile ? pid : dirPid];
                if (raw.readError.empty()) raw.readError = where + what;
            } else {
                warnings.push_back(where + what + ", so it is not read");
            }
            continue;
        }
        if (type != AE_IFREG || (!isTopology && !isProcFile)) continue;
        lastPid = isProcFile ? pid : -1;
        if (archive_entry_size_is_set(entry) &&
            static_cast<std::uint64_t>(archive_entry_size(entry)) > kMaxFileBytes)
            throw ParseError(path, 0,
                             "entry '" + name.substr(0, 60) + "' is larger than " +
                                 std::to_string(kMaxFileBytes >> 20) + " MiB");
        std::string text;
        char buf[1 << 16];
        for (;;) {
            const la_ssize_t n = archive_read_data(a.get(), buf, sizeof buf);
            if (n < 0)
                throw ParseError(path, 0,
                                 "entry '" + name.substr(0, 60) + "': " +
                                     (archive_error_string(a.get()) ? archive_error_string(a.get())
                                                                    : "read error"));
            if (n == 0) break;
            if (text.size() + static_cast<std::size_t>(n) > kMaxFileBytes)
                throw ParseError(path, 0,
                                 "entry '" + name.substr(0, 60) + "' is larger than " +
                                     std::to_string(kMaxFileBytes >> 20) + " MiB");
            if (unpacked() > kMaxArchiveBytes)
                throw ParseError(path, 0, totalCap + " (at entry '" + name.substr(0, 60) + "')");
            text.append(buf, static_cast<std::size_t>(n));
        }
        if (isTopology) {
            if (parts.size() < topologyDepth) {
                topology = std::move(text);
                topologyDepth = parts.size();
            }
            continue;
        }
        RawProcess& raw = procs[pid];
        // Two entries for one pid's file (e.g. a/1/maps and b/1/maps) would be merged silently.
        const bool* has = file == "maps"        ? &raw.hasMaps
                          : file == "numa_maps" ? &raw.hasNumaMaps
                          : file == "status"    ? &raw.hasStatus
                                                : &raw.hasStat;
        if (*has)
            throw ParseError(path, 0,
                             "entry '" + name.substr(0, 60) + "': a second " + std::string(file) +
                                 " for pid " + std::to_string(pid));
        if (file == "maps") {
            raw.maps = std::move(text);
            raw.hasMaps = true;
        } else if (file == "numa_maps") {
            raw.numaMaps = std::move(text);
            raw.hasNumaMaps = true;
        } else if (file == "status") {
            raw.status = std::move(text);
            raw.hasStatus = true;
        } else {
            raw.stat = std::move(text);
            raw.hasStat = true;
        }
    }
    Snapshot snap;
    snap.source = path;
    snap.topologyXml = std::move(topology);
    if (cut) {
        warnings.push_back(path +
                           ": the archive ends without its end-of-archive marker: it may be cut "
                           "short after entry '" +
                           lastName.substr(0, 60) + "', and what came after it is missing");
        // Its files up to the cut are whole, but the ones after it are not there: loading the
        // process from some of its files would be a wrong answer.
        if (lastPid >= 0) {
            RawProcess& raw = procs[lastPid];
            if (raw.readError.empty())
                raw.readError = path + ":" + std::to_string(lastPid) +
                                ": not loaded: the archive may be cut short after its entry '" +
                                lastName.substr(0, 60) + "', before the rest of its files";
        }
    }
    snap.warnings = std::move(warnings);
    PathInterner paths;
    for (const auto& [pid, raw] : procs) {
        limits::Cancelled::check(cancel);
        addProcess(snap, pid, raw, path + ":" + std::to_string(pid), paths);
    }
    sortSnapshot(snap);
    return snap;
}

Snapshot SnapshotLoader::load(const std::string& path, const std::atomic<bool>* cancel) {
    std::error_code ec;
    const fs::file_status st = fs::status(path, ec);
    if (st.type() == fs::file_type::directory) return loadDirectory(path, cancel);
    if (st.type() == fs::file_type::not_found)
        throw ParseError(path, 0, "no such file or directory");
    // Anything else is opened as an archive, whose InputFile says what else is wrong with the
    // path: a loop of symbolic links (not "no such file"), a FIFO, a device...
    return loadArchive(path, cancel);
}

}  // namespace immap::procfs
