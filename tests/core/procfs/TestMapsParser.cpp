// /proc/PID/maps: every field, every special name, the pathname rules, bad lines with their
// reasons and line numbers, and the real 250-process snapshot.
#include <QTest>
#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <map>
#include <random>

#include "Mutator.h"
#include "SampleSnapshot.h"
#include "Suites.h"
#include "procfs/MapsParser.h"
#include "procfs/ParseError.h"
#include "procfs/TextScan.h"

using namespace immap::procfs;
using Kind = MapsEntry::Kind;

Q_DECLARE_METATYPE(MapsEntry::Kind)

namespace {

MapsEntry one(std::string_view line) {
    return MapsParser::parseLine(line, "t/maps", 1);
}

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

// A literal with its embedded NULs.
template <std::size_t N>
QByteArray bytes(const char (&s)[N]) {
    return QByteArray(s, N - 1);
}

// The line's mappings as the kernel pads them: path at column 73 on 64-bit.
std::string withPath(std::string_view head, std::string_view path) {
    std::string line(head);
    line += ' ';
    while (line.size() < 73)
        line += ' ';
    return line.append(path);
}

}  // namespace

class TestMapsParser : public QObject {
    Q_OBJECT

private slots:
    void parsesEveryFieldOfAKernelLine() {
        // The first line of samples/snapshots/host250/17513/maps, decoded by hand.
        const MapsEntry e =
            one("564e31035000-564e31037000 r--p 00000000 fe:00 248056                     "
                "/usr/bin/sleep");
        QCOMPARE(e.start, std::uint64_t{0x564e31035000});
        QCOMPARE(e.end, std::uint64_t{0x564e31037000});
        QVERIFY(e.read && !e.write && !e.exec && !e.shared);
        QCOMPARE(e.offset, std::uint64_t{0});
        QCOMPARE(e.devMajor, std::uint32_t{0xfe});
        QCOMPARE(e.devMinor, std::uint32_t{0});
        QCOMPARE(e.inode, std::uint64_t{248056});
        QCOMPARE(e.path, std::string("/usr/bin/sleep"));
        QVERIFY(!e.deleted);
        QCOMPARE(e.kind, Kind::File);
        QCOMPARE(e.pages(), std::uint64_t{2});
        QCOMPARE(e.pgoff(), std::uint64_t{0});
        QVERIFY(e.fileBacked());

        const MapsEntry text =
            one("7f35a28d5000-7f35a2a2b000 r-xp 00026000 fe:00 332835                     "
                "/usr/lib/x86_64-linux-gnu/libc.so.6");
        QCOMPARE(text.pgoff(), std::uint64_t{0x26});
        QCOMPARE(text.pages(), std::uint64_t{0x156});
        QCOMPARE(text.perms(), std::string("r-xp"));
    }

    void parses32BitAndOddWidthAddresses() {
        // The example of proc.rst: a 32-bit process, eight hex digits, path right after inode.
        const MapsEntry e = one("08048000-08049000 r-xp 00000000 03:00 8312       /opt/test");
        QCOMPARE(e.start, std::uint64_t{0x08048000});
        QCOMPARE(e.end, std::uint64_t{0x08049000});
        QCOMPARE(e.devMajor, std::uint32_t{3});
        QCOMPARE(e.inode, std::uint64_t{8312});
        QCOMPARE(e.path, std::string("/opt/test"));
        QCOMPARE(e.pages(), std::uint64_t{1});

        const MapsEntry narrow = one("1000-3000 rw-p 1000 0:0 0");
        QCOMPARE(narrow.start, std::uint64_t{0x1000});
        QCOMPARE(narrow.end, std::uint64_t{0x3000});
        QCOMPARE(narrow.offset, std::uint64_t{0x1000});
        QCOMPARE(narrow.pgoff(), std::uint64_t{1});

        // The top page of the 64-bit space, and upper-case hex.
        const MapsEntry top = one("FFFFFFFFFFFFE000-FFFFFFFFFFFFF000 r--p 00000000 00:00 0");
        QCOMPARE(top.start, std::uint64_t{0xFFFFFFFFFFFFE000});
        QCOMPARE(top.end, std::uint64_t{0xFFFFFFFFFFFFF000});
        QCOMPARE(top.pages(), std::uint64_t{1});

        // Leading zeros beyond 16 digits are still 64 bits.
        QCOMPARE(one("00000000000000001000-2000 r--p 0 00:00 0").start, std::uint64_t{0x1000});
    }

    void numbersAtTheirLimits() {
        const MapsEntry e =
            one("0-fffffffffffff000 r--p fffffffffffff000 ffffffff:ffffffff "
                "18446744073709551615 /x");
        QCOMPARE(e.end, std::uint64_t{0xfffffffffffff000});
        QCOMPARE(e.offset, std::uint64_t{0xfffffffffffff000});
        QCOMPARE(e.devMajor, std::uint32_t{0xffffffff});
        QCOMPARE(e.devMinor, std::uint32_t{0xffffffff});
        QCOMPARE(e.inode, std::uint64_t{18446744073709551615ull});
        QCOMPARE(one("1000-2000 r--p 0 0:0 000000000000000000000000000012").inode,
                 std::uint64_t{12});
    }

    void randomLinesRoundTrip() {
        // Numbers of every width and both hex cases, written with printf, read back exactly.
        std::mt19937_64 rng(42);
        for (int i = 0; i < 20000; ++i) {
            // start below 2^63; end above it, short of the last two pages of the space.
            const std::uint64_t start = (rng() >> (1 + rng() % 52)) & ~(kPageSize - 1);
            const std::uint64_t room = (~start >> 12) - 1;  // whole pages left above start
            const std::uint64_t end = start + (1 + rng() % room) * kPageSize;
            const std::uint64_t offset = (rng() >> (rng() % 64)) & ~(kPageSize - 1);
            const auto major = static_cast<std::uint32_t>(rng() >> (32 + rng() % 32));
            const auto minor = static_cast<std::uint32_t>(rng() >> (32 + rng() % 32));
            const std::uint64_t inode = rng() >> (rng() % 64);
            const bool upper = rng() & 1;
            char line[200];
            std::snprintf(line, sizeof line,
                          upper ? "%0*" PRIX64 "-%" PRIX64 " rw-s %" PRIX64 " %X:%X %" PRIu64 " /f"
                                : "%0*" PRIx64 "-%" PRIx64 " rw-s %" PRIx64 " %x:%x %" PRIu64 " /f",
                          static_cast<int>(rng() % 20), start, end, offset, major, minor, inode);
            const MapsEntry e = one(line);
            QCOMPARE(e.start, start);
            QCOMPARE(e.end, end);
            QCOMPARE(e.offset, offset);
            QCOMPARE(e.devMajor, major);
            QCOMPARE(e.devMinor, minor);
            QCOMPARE(e.inode, inode);
        }
    }

    void parsesDevices() {
        QCOMPARE(one("1000-2000 r--p 0 103:02 5 /x").devMajor, std::uint32_t{0x103});
        QCOMPARE(one("1000-2000 r--p 0 103:02 5 /x").devMinor, std::uint32_t{2});
        QCOMPARE(one("1000-2000 r--p 0 fe:1a 5 /x").devMinor, std::uint32_t{0x1a});
        QCOMPARE(one("1000-2000 r--p 0 00:00 0").devMajor, std::uint32_t{0});
        QCOMPARE(one("1000-2000 r--p 0 fff:fffff 5 /x").devMinor, std::uint32_t{0xfffff});
    }

    void everyPermsCombination() {
        for (int bits = 0; bits < 16; ++bits) {
            const std::string perms{bits & 1 ? 'r' : '-', bits & 2 ? 'w' : '-',
                                    bits & 4 ? 'x' : '-', bits & 8 ? 's' : 'p'};
            const MapsEntry e = one("1000-2000 " + perms + " 00000000 00:00 0");
            QCOMPARE(e.read, bool(bits & 1));
            QCOMPARE(e.write, bool(bits & 2));
            QCOMPARE(e.exec, bool(bits & 4));
            QCOMPARE(e.shared, bool(bits & 8));
            QCOMPARE(e.perms(), perms);
        }
    }

    void anonymousWithAndWithoutTrailingSpace() {
        // The kernel writes "0 " and stops when there is no name.
        for (const char* line : {"7f35a28ac000-7f35a28af000 rw-p 00000000 00:00 0 ",
                                 "7f35a28ac000-7f35a28af000 rw-p 00000000 00:00 0",
                                 "7f35a28ac000-7f35a28af000 rw-p 00000000 00:00 0      "}) {
            const MapsEntry e = one(line);
            QCOMPARE(e.kind, Kind::Anonymous);
            QVERIFY(e.path.empty());
            QVERIFY(!e.fileBacked());
            QCOMPARE(e.pages(), std::uint64_t{3});
        }
    }

    void pathKeepsInternalAndTrailingSpaces() {
        const std::string head = "7f0000000000-7f0000001000 r--p 00000000 08:01 42";
        QCOMPARE(one(withPath(head, "/home/u/My Files/lib x.so")).path,
                 std::string("/home/u/My Files/lib x.so"));
        QCOMPARE(one(withPath(head, "/tmp/a  b")).path, std::string("/tmp/a  b"));
        QCOMPARE(one(withPath(head, "/tmp/ends in space ")).path,
                 std::string("/tmp/ends in space "));
        // One space of padding is enough, and so is a long run.
        QCOMPARE(one(head + " /x y").path, std::string("/x y"));
        QCOMPARE(one(head + std::string(200, ' ') + "/x").path, std::string("/x"));
    }

    void deletedSuffixIsStrippedAndFlagged() {
        const std::string head = "7f0000000000-7f0000001000 r-xp 00001000 fe:00 332835";
        const MapsEntry e = one(withPath(head, "/usr/lib/x86_64-linux-gnu/libc.so.6 (deleted)"));
        QVERIFY(e.deleted);
        QCOMPARE(e.path, std::string("/usr/lib/x86_64-linux-gnu/libc.so.6"));
        QCOMPARE(e.kind, Kind::File);

        const MapsEntry memfd = one(withPath(head, "/memfd:wayland-shm (deleted)"));
        QVERIFY(memfd.deleted);
        QCOMPARE(memfd.path, std::string("/memfd:wayland-shm"));

        // Only the exact suffix counts.
        const MapsEntry middle = one(withPath(head, "/tmp/ (deleted)/x"));
        QVERIFY(!middle.deleted);
        QCOMPARE(middle.path, std::string("/tmp/ (deleted)/x"));
        const MapsEntry glued = one(withPath(head, "/tmp/x(deleted)"));
        QVERIFY(!glued.deleted);
        QCOMPARE(glued.path, std::string("/tmp/x(deleted)"));
        const MapsEntry twice = one(withPath(head, "/tmp/x (deleted) (deleted)"));
        QVERIFY(twice.deleted);
        QCOMPARE(twice.path, std::string("/tmp/x (deleted)"));
    }

    void octalEscapesAreDecoded() {
        const std::string head = "7f0000000000-7f0000001000 r--p 00000000 fe:00 7";
        QCOMPARE(one(withPath(head, "/tmp/new\\012line")).path, std::string("/tmp/new\nline"));
        QCOMPARE(one(withPath(head, "/tmp/a\\040b\\011c")).path, std::string("/tmp/a b\tc"));
        QCOMPARE(one(withPath(head, "/tmp/\\303\\251t\\303\\251")).path,
                 std::string("/tmp/\xc3\xa9t\xc3\xa9"));
        // Escapes and deletion together: the suffix is literal, the escape is in the name.
        const MapsEntry both = one(withPath(head, "/tmp/x\\012y (deleted)"));
        QVERIFY(both.deleted);
        QCOMPARE(both.path, std::string("/tmp/x\ny"));
        // Not escapes: short, non-octal, past \377, \000, a lone backslash at the end.
        QCOMPARE(one(withPath(head, "/tmp/a\\01")).path, std::string("/tmp/a\\01"));
        QCOMPARE(one(withPath(head, "/tmp/a\\089")).path, std::string("/tmp/a\\089"));
        QCOMPARE(one(withPath(head, "/tmp/a\\412")).path, std::string("/tmp/a\\412"));
        QCOMPARE(one(withPath(head, "/tmp/a\\000b")).path, std::string("/tmp/a\\000b"));
        QCOMPARE(one(withPath(head, "/tmp/a\\")).path, std::string("/tmp/a\\"));
        QCOMPARE(one(withPath(head, "C:\\\\dir")).path, std::string("C:\\\\dir"));
    }

    void specialNames_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<MapsEntry::Kind>("kind");
        QTest::newRow("heap") << "[heap]" << Kind::Heap;
        QTest::newRow("stack") << "[stack]" << Kind::Stack;
        QTest::newRow("vdso") << "[vdso]" << Kind::Vdso;
        QTest::newRow("vvar") << "[vvar]" << Kind::Vvar;
        QTest::newRow("vvar_vclock") << "[vvar_vclock]" << Kind::Vvar;
        QTest::newRow("vsyscall") << "[vsyscall]" << Kind::Vsyscall;
        QTest::newRow("anon") << "[anon:glibc malloc arena]" << Kind::AnonNamed;
        QTest::newRow("anon_shmem") << "[anon_shmem:pool]" << Kind::AnonShmemNamed;
        QTest::newRow("uprobes") << "[uprobes]" << Kind::OtherSpecial;
        QTest::newRow("old thread stack") << "[stack:1234]" << Kind::OtherSpecial;
        QTest::newRow("vdso lookalike") << "[vdso2]" << Kind::OtherSpecial;
        QTest::newRow("unclosed") << "[heap" << Kind::File;
        QTest::newRow("anon_inode") << "anon_inode:[perf_event]" << Kind::File;
        QTest::newRow("file") << "/usr/bin/sleep" << Kind::File;
    }

    void specialNames() {
        QFETCH(QString, name);
        QFETCH(MapsEntry::Kind, kind);
        const MapsEntry e =
            one(withPath("7ffe51491000-7ffe514b2000 rw-p 00000000 00:00 0", name.toStdString()));
        QCOMPARE(e.kind, kind);
        QCOMPARE(qs(e.path), name);  // the name is kept, brackets and all
        QVERIFY(!e.deleted);
    }

    void linesAndLineEnds() {
        const std::string a = "1000-2000 r--p 00000000 00:00 0";
        const std::string b = withPath("2000-4000 r--p 00000000 fe:00 9", "/x");
        QVERIFY(MapsParser::parse("", "t/maps").empty());  // a kernel thread's maps
        QCOMPARE(MapsParser::parse(a + "\n" + b, "t/maps").size(), std::size_t{2});
        QCOMPARE(MapsParser::parse(a + "\n" + b + "\n", "t/maps").size(), std::size_t{2});
        const auto crlf = MapsParser::parse(a + "\r\n" + b + "\r\n", "t/maps");
        QCOMPARE(crlf.size(), std::size_t{2});
        QCOMPARE(crlf[1].path, std::string("/x"));  // no '\r' left on the name
        QCOMPARE(crlf[1].end, std::uint64_t{0x4000});
    }

    void keepsInvalidUtf8InPaths() {
        // Linux names are bytes: they are kept exactly, not "repaired".
        const std::string path = "/tmp/\xff\xfe\xc3(\x80";
        QCOMPARE(one(withPath("1000-2000 r--p 0 00:00 3", path)).path, path);
    }

    void rejectsBadLines_data() {
        QTest::addColumn<QByteArray>("line");
        QTest::addColumn<QString>("reason");
        const QByteArray tail = " r--p 00000000 fe:00 1 /x";
        QTest::newRow("no dash") << "7f35a28af000" + tail
                                 << "bad address range '7f35a28af000': expected start-end in hex";
        QTest::newRow("bad end") << "12-zz" + tail << "bad address range '12-zz'";
        QTest::newRow("no start") << "-1000" + tail << "bad address range '-1000'";
        QTest::newRow("no end") << "1000-" + tail << "bad address range '1000-'";
        QTest::newRow("0x prefix") << "0x1000-0x2000" + tail << "bad address range '0x1000-0x2000'";
        QTest::newRow("sign") << "+1000-2000" + tail << "bad address range '+1000-2000'";
        QTest::newRow("start past 64 bits")
            << "10000000000000000-10000000000001000" + tail
            << "number past 64 bits in address range '10000000000000000-10000000000001000'";
        QTest::newRow("end past 64 bits")
            << "1000-10000000000000000" + tail
            << "number past 64 bits in address range '1000-10000000000000000'";
        QTest::newRow("reversed") << "2000-1000" + tail
                                  << "end address before start in '2000-1000'";
        QTest::newRow("empty range") << "1000-1000" + tail << "empty address range '1000-1000'";
        QTest::newRow("unaligned")
            << "1000-1800" + tail << "address range not page-aligned '1000-1800'";
        QTest::newRow("leading space")
            << " 1000-2000" + tail << "bad address range '': expected start-end in hex";
        QTest::newRow("tab separator")
            << QByteArray("1000-2000\tr--p 0 00:00 0") << "bad address range '1000-2000\\x09r--p'";
        QTest::newRow("only range") << QByteArray("1000-2000") << "missing perms";
        QTest::newRow("short perms") << QByteArray("1000-2000 rw 0 00:00 0")
                                     << "perms must be 4 characters like r-xp, got 'rw'";
        QTest::newRow("long perms") << QByteArray("1000-2000 rwxps 0 00:00 0")
                                    << "perms must be 4 characters like r-xp, got 'rwxps'";
        QTest::newRow("bad perm letter") << QByteArray("1000-2000 rwzp 0 00:00 0")
                                         << "bad perms 'rwzp': expected [r-][w-][x-][ps]";
        QTest::newRow("perms out of order") << QByteArray("1000-2000 wr-p 0 00:00 0")
                                            << "bad perms 'wr-p': expected [r-][w-][x-][ps]";
        QTest::newRow("bad sharing") << QByteArray("1000-2000 r--x 0 00:00 0")
                                     << "bad perms 'r--x': expected [r-][w-][x-][ps]";
        QTest::newRow("upper-case perms") << QByteArray("1000-2000 R--P 0 00:00 0")
                                          << "bad perms 'R--P': expected [r-][w-][x-][ps]";
        QTest::newRow("no offset") << QByteArray("1000-2000 r--p") << "missing offset";
        QTest::newRow("no offset, space") << QByteArray("1000-2000 r--p ") << "missing offset";
        QTest::newRow("bad offset")
            << QByteArray("1000-2000 r--p 00g0 00:00 0") << "bad offset '00g0'";
        QTest::newRow("offset past 64 bits")
            << QByteArray("1000-2000 r--p 1ffffffffffffffff 00:00 0")
            << "number past 64 bits in offset '1ffffffffffffffff'";
        QTest::newRow("unaligned offset") << QByteArray("1000-2000 r--p 00000010 00:00 0")
                                          << "offset not page-aligned '00000010'";
        QTest::newRow("no device") << QByteArray("1000-2000 r--p 00000000") << "missing device";
        QTest::newRow("device without colon") << QByteArray("1000-2000 r--p 0 fe00 0")
                                              << "bad device 'fe00': expected major:minor in hex";
        QTest::newRow("device bad minor")
            << QByteArray("1000-2000 r--p 0 fe:zz 0") << "bad device 'fe:zz'";
        QTest::newRow("device no minor")
            << QByteArray("1000-2000 r--p 0 fe: 0") << "bad device 'fe:'";
        QTest::newRow("device two colons")
            << QByteArray("1000-2000 r--p 0 fe:0:1 0") << "bad device 'fe:0:1'";
        QTest::newRow("device past 32 bits") << QByteArray("1000-2000 r--p 0 100000000:00 0")
                                             << "number past 32 bits in device '100000000:00'";
        QTest::newRow("no inode") << QByteArray("7f35a28af000-7f35a28d5000 r--p 00000000 fe:00")
                                  << "missing inode";
        QTest::newRow("bad inode")
            << QByteArray("1000-2000 r--p 0 fe:00 12x /x") << "bad inode '12x'";
        QTest::newRow("negative inode")
            << QByteArray("1000-2000 r--p 0 fe:00 -1 /x") << "bad inode '-1'";
        QTest::newRow("hex inode")
            << QByteArray("1000-2000 r--p 0 fe:00 0x10 /x") << "bad inode '0x10'";
        QTest::newRow("inode past 64 bits")
            << QByteArray("1000-2000 r--p 0 fe:00 18446744073709551616 /x")
            << "number past 64 bits in inode '18446744073709551616'";
        QTest::newRow("NUL in path")
            << bytes("1000-2000 r--p 0 fe:00 1 /a\0b") << "NUL byte in pathname '/a\\x00b'";
        QTest::newRow("NUL in address")
            << bytes("1000-2\0000 r--p 0 fe:00 1 /a") << "bad address range '1000-2\\x000'";
        QTest::newRow("invalid UTF-8 in address")
            << "1000-2\xff" + tail << "bad address range '1000-2\\xff'";
        QTest::newRow("UTF-8 in perms") << QByteArray("1000-2000 r\xc3\xa9p 0 fe:00 1")
                                        << "bad perms 'r\xc3\xa9p': expected [r-][w-][x-][ps]";
        QTest::newRow("UTF-8 short perms")
            << QByteArray("1000-2000 r\xc3\xa9 0 fe:00 1")
            << "perms must be 4 characters like r-xp, got 'r\xc3\xa9'";
        QTest::newRow("empty line") << QByteArray() << "empty line";
        QTest::newRow("CR-only line") << QByteArray("\r") << "empty line";
    }

    void rejectsBadLines() {
        QFETCH(QByteArray, line);
        QFETCH(QString, reason);
        // Two good lines first: the error must name the third.
        const std::string good = withPath("1000-2000 r--p 00000000 fe:00 1", "/lib/a.so");
        const std::string text = good + "\n" + good + "\n" + line.toStdString() + "\n" + good;
        try {
            MapsParser::parse(text, "17513/maps");
            QFAIL("no ParseError");
        } catch (const ParseError& e) {
            QCOMPARE(qs(e.reason()), reason);
            QCOMPARE(e.line(), std::size_t{3});
            QCOMPARE(e.file(), std::string("17513/maps"));
            QCOMPARE(qs(e.what()), "17513/maps:3: " + reason);
        }
    }

    void lineNumbersCountEveryLine() {
        std::string text;
        for (int i = 0; i < 36; ++i)
            text += "1000-2000 r--p 0 00:00 0\n";
        try {
            MapsParser::parse(text + "bad\n", "m");
            QFAIL("no ParseError");
        } catch (const ParseError& e) {
            QCOMPARE(e.line(), std::size_t{37});
        }
        try {
            MapsParser::parse("\n" + text, "m");
            QFAIL("no ParseError");
        } catch (const ParseError& e) {
            QCOMPARE(e.line(), std::size_t{1});
            QCOMPARE(qs(e.reason()), QString("empty line"));
        }
        try {
            MapsParser::parse(text + "\n\n", "m");  // one final newline is fine, two are not
            QFAIL("no ParseError");
        } catch (const ParseError& e) {
            QCOMPARE(e.line(), std::size_t{37});
        }
    }

    void hugeLinesMakeShortMessages() {
        // 10 MB of junk in the address, and a 10 MB inode: the message quotes 40 bytes.
        const std::string junk(10 << 20, 'z');
        for (const std::string& line :
             {junk + " r--p 0 00:00 0", "1000-2000 r--p 0 00:00 " + std::string(10 << 20, '7')}) {
            try {
                one(line);
                QFAIL("no ParseError");
            } catch (const ParseError& e) {
                QVERIFY2(std::string_view(e.what()).size() < 120, e.what());
                QVERIFY(e.reason().find("...'") != std::string::npos);
            }
        }
        // A 10 MB pathname is legal and kept whole.
        const MapsEntry e = one("1000-2000 r--p 0 00:00 5 /" + junk);
        QCOMPARE(e.path.size(), junk.size() + 1);
    }

    void quoteCutsBetweenCharacters() {
        // 39 ASCII bytes then a 2-byte character: cut before it, never inside.
        const std::string text = std::string(39, 'a') + "\xc3\xa9" + "tail";
        QCOMPARE(detail::quote(text), "'" + std::string(39, 'a') + "...'");
        QCOMPARE(detail::quote("a\tb\x7f\xed\xa0\x80"),
                 std::string("'a\\x09b\\x7f\\xed\\xa0\\x80'"));
        QCOMPARE(detail::quote("\xf0\x9f\x98\x80"), std::string("'\xf0\x9f\x98\x80'"));
    }

    void damagedRealFilesFailCleanly() {
        // Whatever the damage: a parse, or a ParseError with a short reason; never another
        // exception, a crash, or an entry that breaks the format's invariants.
        const std::string original = SampleSnapshot::read("17513", "maps");
        QVERIFY(!original.empty());
        Mutator mutator(1234);
        int failures = 0;
        for (int i = 0; i < 20000; ++i) {
            const std::string text = mutator.mutate(original);
            try {
                for (const MapsEntry& e : MapsParser::parse(text, "m")) {
                    QVERIFY(e.end > e.start);
                    QCOMPARE(e.start % kPageSize, std::uint64_t{0});
                    QCOMPARE(e.perms().size(), std::size_t{4});
                    QVERIFY(e.path.find('\0') == std::string::npos);
                    QCOMPARE(e.kind == Kind::Anonymous, e.path.empty());
                }
            } catch (const ParseError& e) {
                ++failures;
                QVERIFY2(e.reason().size() < 200, e.what());
                QVERIFY(e.line() >= 1);
            } catch (...) {
                QFAIL("an exception other than ParseError");
            }
        }
        QVERIFY(failures > 1000);  // the damage did reach the parser
    }

    void realSnapshotMatchesAPlainReading() {
        // Every line of the 250 maps files against sscanf: a second reading that shares no code.
        std::size_t lines = 0;
        for (const std::string& pid : SampleSnapshot::pids()) {
            const std::string text = SampleSnapshot::read(pid, "maps");
            const auto entries = MapsParser::parse(text, pid + "/maps");
            const auto raw = SampleSnapshot::lines(text);
            QCOMPARE(entries.size(), raw.size());
            QCOMPARE(entries.size(), std::size_t(std::count(text.begin(), text.end(), '\n')));
            for (std::size_t i = 0; i < entries.size(); ++i) {
                const std::string line(raw[i]);
                std::uint64_t start, end, offset, inode;
                unsigned major, minor;
                char perms[5];
                int pathAt = 0;
                QCOMPARE(std::sscanf(line.c_str(),
                                     "%" SCNx64 "-%" SCNx64 " %4s %" SCNx64 " %x:%x %" SCNu64 " %n",
                                     &start, &end, perms, &offset, &major, &minor, &inode, &pathAt),
                         7);
                const MapsEntry& e = entries[i];
                QCOMPARE(e.start, start);
                QCOMPARE(e.end, end);
                QCOMPARE(e.perms(), std::string(perms));
                QCOMPARE(e.offset, offset);
                QCOMPARE(e.devMajor, major);
                QCOMPARE(e.devMinor, minor);
                QCOMPARE(e.inode, inode);
                QCOMPARE(e.path, line.substr(static_cast<std::size_t>(pathAt)));
                ++lines;
            }
        }
        QCOMPARE(lines, std::size_t{9730});  // wc -l over the 250 files
    }

    void realSnapshotLibcAndSpecials() {
        const auto pids = SampleSnapshot::pids();
        QCOMPARE(pids.size(), std::size_t{250});
        std::size_t libcLines = 0, libcEntries = 0;
        for (const std::string& pid : pids) {
            const std::string text = SampleSnapshot::read(pid, "maps");
            for (std::string_view line : SampleSnapshot::lines(text))
                libcLines += line.find("libc.so.6") != std::string_view::npos;

            std::vector<MapsEntry> libc;
            std::map<Kind, int> kinds;
            for (MapsEntry& e : MapsParser::parse(text, pid + "/maps")) {
                ++kinds[e.kind];
                if (e.path.ends_with("/libc.so.6")) libc.push_back(std::move(e));
            }
            libcEntries += libc.size();
            // glibc's five segments, in address order (docs/kernel.md, "3.2 Five VMAs per
            // library").
            QCOMPARE(libc.size(), std::size_t{5});
            const char* expected[] = {"r--p", "r-xp", "r--p", "r--p", "rw-p"};
            for (std::size_t i = 0; i < libc.size(); ++i) {
                QCOMPARE(libc[i].perms(), std::string(expected[i]));
                QCOMPARE(libc[i].kind, Kind::File);
                QVERIFY(libc[i].fileBacked());
                QCOMPARE(libc[i].inode, libc[0].inode);
                if (i) QVERIFY(libc[i].pgoff() > libc[i - 1].pgoff());
                if (i) QCOMPARE(libc[i].start, libc[i - 1].end);  // contiguous
            }
            QCOMPARE(kinds[Kind::Heap], 1);
            QCOMPARE(kinds[Kind::Stack], 1);
            QCOMPARE(kinds[Kind::Vdso], 1);
            QCOMPARE(kinds[Kind::Vsyscall], 1);
            QCOMPARE(kinds[Kind::Vvar], 2);  // [vvar] and [vvar_vclock] on this 6.x kernel
            QCOMPARE(kinds[Kind::OtherSpecial], 0);
        }
        QCOMPARE(libcLines, std::size_t{1250});
        QCOMPARE(libcEntries, std::size_t{1250});
    }
};

IMMAP_TEST_SUITE(TestMapsParser);
#include "TestMapsParser.moc"
