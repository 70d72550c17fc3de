// The exec recipe and the address-space planner against known answers: the default recipe's
// final layouts equal the real ones in the host250 snapshot, its lock holds per exec match the
// count worked out by hand from the kernel's paths (docs/recipe.md), bad recipes name their
// line, and random mmap/munmap/mprotect sequences agree with a page-by-page model.
#include <QDir>
#include <QTest>
#include <cstring>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <sstream>

#include "Suites.h"
#include "itree/IntervalTree.h"
#include "itree/InvariantChecker.h"
#include "procfs/MapsParser.h"
#include "procfs/NumaMapsParser.h"
#include "sim/AddressSpace.h"
#include "sim/Recipe.h"

using namespace immap;
using namespace immap::sim;

namespace {

std::string readText(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// Executes a plan on one tree per file, as the simulator does, untimed.
void execute(Plan& plan, AddressSpace& as, std::vector<itree::IntervalTree>& trees) {
    for (const Hold& h : plan.holds) {
        for (std::uint32_t k = 0; k < h.opCount; ++k) {
            const TreeOp& op = plan.ops[h.firstOp + k];
            applyTreeOp(op, trees[static_cast<std::size_t>(op.vma->file)], as);
        }
    }
    plan.clear();
}

// (pgoff first, pgoff last, perms) of the file's VMAs in a real maps file, in address order.
std::vector<std::tuple<std::uint64_t, std::uint64_t, std::string>> realLayout(
    const std::string& maps, const std::string& name) {
    std::vector<std::tuple<std::uint64_t, std::uint64_t, std::string>> out;
    for (const procfs::MapsEntry& e : procfs::MapsParser::parse(readText(maps), maps)) {
        const std::string path = e.path.str();
        if (path.size() < name.size() ||
            path.compare(path.size() - name.size(), name.size(), name) != 0)
            continue;
        const std::uint64_t first = e.offset / 4096;
        out.emplace_back(first, first + (e.end - e.start) / 4096 - 1, e.perms().substr(0, 3));
    }
    return out;
}

std::string perms(std::uint8_t prot) {
    std::string s = "---";
    if (prot & kProtRead) s[0] = 'r';
    if (prot & kProtWrite) s[1] = 'w';
    if (prot & kProtExec) s[2] = 'x';
    return s;
}

}  // namespace

class TestRecipe : public QObject {
    Q_OBJECT

private slots:
    void defaultRecipeEndsInTheRealLayouts() {
        const Recipe& r = Recipe::builtinDefault();
        AddressSpace as(0, 0);
        Plan plan;
        as.planSteps(r, BatchRule{}, plan);
        std::vector<itree::IntervalTree> trees(r.files.size());
        execute(plan, as, trees);
        // A process from the real snapshot: its sleep, libc and ld.so layouts.
        const std::string maps = std::string(IMMAP_SAMPLES) + "/snapshots/host250/17513/maps";
        const std::pair<const char*, const char*> pairs[] = {
            {"execl", "/usr/bin/sleep"},
            {"libc.so.6", "/libc.so.6"},
            {"ld-linux-x86-64.so.2", "/ld-linux-x86-64.so.2"},
        };
        for (auto [file, real] : pairs) {
            const auto expected = realLayout(maps, real);
            QCOMPARE(expected.size(), std::size_t{5});
            std::vector<std::tuple<std::uint64_t, std::uint64_t, std::string>> got;
            const int f = r.fileIndex(file);
            for (const auto& s : as.segments())
                if (s.file == f)
                    got.emplace_back(s.pgoff, s.pgoff + (s.end - s.start) - 1, perms(s.prot));
            QCOMPARE(got, expected);
            QCOMPARE(trees[static_cast<std::size_t>(f)].size(), std::size_t{5});
            QVERIFY(itree::InvariantChecker::check(trees[static_cast<std::size_t>(f)]).ok);
        }
        // The loader's cache was mapped and unmapped again.
        QCOMPARE(trees[static_cast<std::size_t>(r.fileIndex("ld.so.cache"))].size(),
                 std::size_t{0});
    }

    // Worked out by hand from the kernel's rules (docs/recipe.md), per exec and file: lock
    // holds and tree operations under single (exit batching, one acquisition per split) and
    // under split-locks (one hold per VMA at exit, two acquisitions per split).
    //
    // The rules (mm/vma.c and mm/mmap.c, 6.12):
    //   new mapping, no compatible neighbour: 1 hold, 1 op (vma_link_file);
    //   __split_vma: vma_prepare links the piece, removes the VMA; vma_complete re-inserts it:
    //     3 ops; 1 hold, or 2 under v2 (the piece's tree, then the VMA's tree);
    //   vma_merge_new_range -> vma_expand of one neighbour: 1 hold, 2 ops (remove, re-insert);
    //   unlinking VMAs: 1 op each; 1 hold per batch of <= 8 (single), 1 per VMA (v2);
    //   a compatible neighbour has the same file, prot and VM_ACCOUNT, is adjacent and has
    //   contiguous pgoff. A rw private mapping gets VM_ACCOUNT and keeps it through mprotect.
    void holdsPerExecMatchTheHandCount() {
        struct Count {
            int holds = 0, ops = 0;
            void add(int h, int o) { holds += h, ops += o; }
        };
        // Today's kernel, v2, and a kernel before exit batching (2024: one hold per VMA).
        enum Kernel { Today, V2, Unbatched };
        for (Kernel kernel : {Today, V2, Unbatched}) {
            const bool v2 = kernel == V2;
            const int splitHolds = v2 ? 2 : 1;
            auto split = [&](Count& c) { c.add(splitHolds, 3); };
            auto unlink = [&](Count& c, int vmas) {
                c.add(kernel == Today ? (vmas + 7) / 8 : vmas, vmas);
            };
            auto insert = [](Count& c) { c.add(1, 1); };
            auto expand = [](Count& c) { c.add(1, 2); };

            // The executable and ld.so (elf_map, load_elf_binary / load_elf_interp): teardown
            // of last exec's 5 VMAs; the first PT_LOAD over the total size (insert); vm_munmap
            // of the tail (split, unlink 1); PT_LOADs 2-4 into the hole, each next to a
            // neighbour of other protection (3 inserts); RELRO mprotect of the start of the rw
            // segment: a split at its end (no merge with the r-- neighbour: VM_ACCOUNT).
            Count elf;
            unlink(elf, 5);
            insert(elf);
            split(elf);
            unlink(elf, 1);
            for (int k = 0; k < 3; ++k)
                insert(elf);
            split(elf);

            // libc (the trace): teardown of 5; the big r mapping (insert); MAP_FIXED r-x in
            // its middle: split at both ends, unlink the middle, insert (r and r-x differ);
            // MAP_FIXED r at 0x17c: split at 0x1cf, unlink the middle, then the new range is
            // adjacent to the r tail at 0x1cf with contiguous pgoff and equal flags:
            // vma_expand of the tail; MAP_FIXED rw at 0x1cf inside the merged r VMA: split at
            // both ends, unlink, insert (rw differs from both sides); anon bss over
            // 0x1d5-0x1e2: unlink 1; RELRO mprotect: split.
            Count libc;
            unlink(libc, 5);
            insert(libc);
            split(libc), split(libc), unlink(libc, 1), insert(libc);
            split(libc), unlink(libc, 1), expand(libc);
            split(libc), split(libc), unlink(libc, 1), insert(libc);
            unlink(libc, 1);
            split(libc);

            Count cache;  // ld.so.cache: mmap, then munmap of the whole VMA
            insert(cache);
            unlink(cache, 1);

            // The figures in docs/recipe.md, so that the prose and the rules agree.
            const std::pair<int, int> elfFigure[] = {{8, 16}, {14, 16}, {12, 16}};
            const std::pair<int, int> libcFigure[] = {{15, 32}, {25, 32}, {19, 32}};
            QCOMPARE(std::make_pair(elf.holds, elf.ops), elfFigure[kernel]);
            QCOMPARE(std::make_pair(libc.holds, libc.ops), libcFigure[kernel]);

            const Recipe& r = Recipe::builtinDefault();
            AddressSpace as(0, 0);
            Plan plan;
            std::vector<itree::IntervalTree> trees(r.files.size());
            const BatchRule rule{kernel == Unbatched ? 1u : 8u, v2, v2};
            as.planSteps(r, rule, plan);  // the first image (nothing to tear down)
            execute(plan, as, trees);
            as.planSteps(r, rule, plan);                         // a steady-state exec
            std::map<std::string, std::pair<int, int>> perFile;  // holds, ops
            for (const Hold& h : plan.holds) {
                auto& c = perFile[r.files[static_cast<std::size_t>(h.file)].name];
                ++c.first;
                c.second += static_cast<int>(h.opCount);
            }
            QCOMPARE(perFile["execl"], std::make_pair(elf.holds, elf.ops));
            QCOMPARE(perFile["ld-linux-x86-64.so.2"], std::make_pair(elf.holds, elf.ops));
            QCOMPARE(perFile["libc.so.6"], std::make_pair(libc.holds, libc.ops));
            QCOMPARE(perFile["ld.so.cache"], std::make_pair(cache.holds, cache.ops));
        }
    }

    // A merge happens only with a compatible neighbour: the same file, protection and
    // VM_ACCOUNT, adjacent, with contiguous pgoff (can_vma_merge_before/after).
    void newMappingMergesOnlyWithACompatibleNeighbour() {
        Recipe r;
        r.files = {{"f", "", false}, {"g", "", false}};
        AddressSpace as(0, 0);
        Plan plan;
        std::vector<itree::IntervalTree> trees(2);
        const BatchRule rule;
        as.planMmap(0, 10, 5, 10, kProtRead, false, rule, plan);  // [10,15) pgoff 10
        execute(plan, as, trees);
        as.planMmap(0, 15, 5, 16, kProtRead, false, rule, plan);  // pgoff not contiguous
        as.planMmap(0, 25, 5, 25, kProtRead | kProtWrite, false, rule, plan);
        as.planMmap(0, 30, 5, 30, kProtRead, false, rule, plan);  // rw before it: no
        as.planMmap(1, 35, 5, 35, kProtRead, false, rule, plan);  // another file
        QCOMPARE(as.vmaCount(), std::size_t{5});
        for (const Hold& h : plan.holds)
            QCOMPARE(h.kind, Hold::Map);
        execute(plan, as, trees);
        // [5,10) pgoff 5 joins [10,15) from below: one hold, remove and re-insert.
        as.planMmap(0, 5, 5, 5, kProtRead, false, rule, plan);
        QCOMPARE(plan.holds.size(), std::size_t{1});
        QCOMPARE(plan.holds[0].kind, Hold::Expand);
        QCOMPARE(plan.holds[0].opCount, 2u);
        execute(plan, as, trees);
        QCOMPARE(as.vmaCount(), std::size_t{5});
        QCOMPARE(as.segments()[0].start, std::uint64_t{5});
        QCOMPARE(as.segments()[0].end, std::uint64_t{15});
        // [20,25) r pgoff 20 between [15,20) pgoff 16 (16 + 5 != 20) and rw: no merge.
        as.planMmap(0, 20, 5, 20, kProtRead, false, rule, plan);
        QCOMPARE(plan.holds.back().kind, Hold::Map);
        execute(plan, as, trees);
        QCOMPARE(as.vmaCount(), std::size_t{6});
        // A written VMA mprotected read-only keeps VM_ACCOUNT: an r mapping after it, with
        // contiguous pgoff, still does not merge.
        as.planMprotect(25, 5, kProtRead, plan);
        as.planMunmap(30, 5, rule, plan);
        as.planMmap(0, 30, 5, 30, kProtRead, false, rule, plan);
        QCOMPARE(plan.holds.back().kind, Hold::Map);
        execute(plan, as, trees);
        QCOMPARE(as.vmaCount(), std::size_t{6});
        for (std::size_t f = 0; f < trees.size(); ++f)
            QVERIFY(itree::InvariantChecker::check(trees[f]).ok);
    }

    void batchesHoldAtMostEight() {
        Recipe r;
        r.files = {{"f", "", false}};
        for (int i = 0; i < 20; ++i) {  // 20 one-page mappings with alternating protections
            RecipeStep s;
            s.op = StepOp::Mmap;
            s.file = 0;
            s.at = static_cast<std::uint64_t>(i);
            s.pages = 1;
            s.pgoff = static_cast<std::uint64_t>(i);
            s.prot = i % 2 ? kProtRead : kProtRead | kProtExec;
            r.steps.push_back(s);
        }
        AddressSpace as(0, 0);
        Plan plan;
        std::vector<itree::IntervalTree> trees(1);
        as.planSteps(r, BatchRule{}, plan);
        execute(plan, as, trees);
        Recipe teardown;
        teardown.files = r.files;
        RecipeStep exitStep;
        exitStep.op = StepOp::ExitMmap;
        teardown.steps.push_back(exitStep);
        as.planSteps(teardown, BatchRule{}, plan);
        std::vector<std::uint32_t> sizes;
        for (const Hold& h : plan.holds)
            sizes.push_back(h.opCount);
        QCOMPARE(sizes, (std::vector<std::uint32_t>{8, 8, 4}));
        execute(plan, as, trees);
        QVERIFY(trees[0].empty());
    }

    // Random address-space calls against a page map; the tree must hold exactly the
    // segments' intervals and pass the invariant checker after every call.
    void randomCallsAgreeWithAPageModel() {
        std::mt19937_64 rng(7);
        const std::uint64_t kPages = 64;
        Recipe r;
        r.files = {{"a", "", false}, {"b", "", false}};
        AddressSpace as(0, 0);
        std::vector<itree::IntervalTree> trees(2);
        struct Page {
            int file = -1;
            std::uint64_t pgoff = 0;
            std::uint8_t prot = 0;
        };
        std::vector<std::vector<Page>> model(2, std::vector<Page>(kPages));
        Plan plan;
        for (int iter = 0; iter < 3000; ++iter) {
            RecipeStep s;
            s.file = static_cast<int>(rng() % 2);
            s.at = rng() % kPages;
            s.pages = 1 + rng() % (kPages - s.at);
            const int kind = static_cast<int>(rng() % 4);
            s.op = kind == 0 ? StepOp::Munmap : kind == 1 ? StepOp::Mprotect : StepOp::Mmap;
            s.prot = static_cast<std::uint8_t>(1 + rng() % 7);
            s.pgoff = rng() % 1000;
            s.anon = s.op == StepOp::Mmap && rng() % 5 == 0;
            auto& pages = model[static_cast<std::size_t>(s.file)];
            for (std::uint64_t p = s.at; p < s.at + s.pages; ++p) {
                if (s.op == StepOp::Munmap || s.anon)
                    pages[p] = Page{};
                else if (s.op == StepOp::Mmap)
                    pages[p] = Page{s.file, s.pgoff + (p - s.at), s.prot};
                else if (pages[p].file >= 0)
                    pages[p].prot = s.prot;
            }
            r.steps = {s};
            as.planSteps(r, BatchRule{}, plan);
            execute(plan, as, trees);
            // Segments tile exactly the mapped pages, with the right file offsets.
            std::vector<std::vector<Page>> seen(2, std::vector<Page>(kPages));
            std::map<int, std::multiset<std::pair<std::uint64_t, std::uint64_t>>> intervals;
            for (const auto& seg : as.segments()) {
                for (std::uint64_t v = seg.start; v < seg.end; ++v) {
                    const std::uint64_t p = v - AddressSpace::regionBase(seg.file);
                    QVERIFY(p < kPages);
                    seen[static_cast<std::size_t>(seg.file)][p] =
                        Page{seg.file, seg.pgoff + (v - seg.start), seg.prot};
                }
                intervals[seg.file].insert({seg.pgoff, seg.pgoff + (seg.end - seg.start) - 1});
            }
            for (int f = 0; f < 2; ++f) {
                for (std::uint64_t p = 0; p < kPages; ++p) {
                    const Page& a = model[static_cast<std::size_t>(f)][p];
                    const Page& b = seen[static_cast<std::size_t>(f)][p];
                    QCOMPARE(b.file, a.file);
                    if (a.file >= 0) {
                        QCOMPARE(b.pgoff, a.pgoff);
                        QCOMPARE(b.prot, a.prot);
                    }
                }
                std::multiset<std::pair<std::uint64_t, std::uint64_t>> inTree;
                const auto& t = trees[static_cast<std::size_t>(f)];
                for (const itree::Node* n = t.leftmost(); n; n = itree::IntervalTree::next(n))
                    inTree.insert({n->start, n->last});
                QCOMPARE(inTree, intervals[f]);
                QVERIFY(itree::InvariantChecker::check(t).ok);
            }
        }
    }

    void badRecipesNameTheLine() {
        struct Case {
            const char* json;
            int line;
            const char* reason;
        };
        const Case cases[] = {
            {"{\n\"format\": \"immap-recipe\",\n\"version\": 1,\n", 4, "not valid JSON"},
            {"{\"format\": \"immap-recipe\", \"version\": 2, \"files\": [], \"steps\": []}", 1,
             "unsupported recipe version 2"},
            {"{\"format\": \"other\"}", 1, "not an immap recipe"},
            {"{\"format\": \"immap-recipe\", \"version\": 1,\n \"files\": [{\"name\": \"a\"}],\n"
             " \"steps\": [\n  {\"op\": \"work\", \"weight\": 1},\n  {\"op\": \"fork\"}\n ]}",
             5, "unknown op \"fork\""},
            {"{\"format\": \"immap-recipe\", \"version\": 1,\n \"files\": [{\"name\": \"a\"}],\n"
             " \"steps\": [\n  {\"op\": \"work\", \"weight\": 1},\n\n  {\"op\": \"mmap\", "
             "\"file\": \"b\", \"at\": 0, \"pages\": 1}\n ]}",
             6, "unknown file \"b\""},
            {"{\"format\": \"immap-recipe\", \"version\": 1, \"files\": [{\"name\": \"a\"}],\n"
             " \"steps\": [{\"op\": \"munmap\", \"file\": \"a\", \"at\": -1, \"pages\": 1}, "
             "{\"op\": \"work\", \"weight\": 1}]}",
             2, "\"at\" must be a whole number"},
            {"{\"format\": \"immap-recipe\", \"version\": 1, \"files\": [{\"name\": \"a\"}],\n"
             " \"steps\": [{\"op\": \"munmap\", \"file\": \"a\", \"at\": 0, \"pages\": 1}]}",
             1, "no work step has a positive weight"},
            {"{\"format\": \"immap-recipe\", \"version\": 1, \"files\": [\n"
             " {\"name\": \"a\"},\n {\"name\": \"b\", \"per_copy\": \"yes\"}],\n"
             " \"steps\": [{\"op\": \"work\", \"weight\": 1}]}",
             3, "file \"b\": \"per_copy\" must be true or false"},
            {"{\"format\": \"immap-recipe\", \"version\": 1, \"files\": [\n"
             " {\"name\": \"b\", \"per_copy\": true, \"background\": true}],\n"
             " \"steps\": [{\"op\": \"work\", \"weight\": 1}]}",
             2, "file \"b\": \"per_copy\" and \"background\" exclude each other"},
            {"{\"format\": \"immap-recipe\", \"version\": 1, \"files\": [\n"
             " {\"name\": \"a\"},\n {\"name\": \"b\", \"exec_open\": \"script\"}],\n"
             " \"steps\": [{\"op\": \"work\", \"weight\": 1}]}",
             3, "file \"b\": \"exec_open\" must be \"binary\" or \"interpreter\""},
            {"{\"format\": \"immap-recipe\", \"version\": 1, \"files\": [\n"
             " {\"name\": \"b\", \"mapped_pages\": -3}],\n"
             " \"steps\": [{\"op\": \"work\", \"weight\": 1}]}",
             2, "\"mapped_pages\" must be a whole number of pages"},
        };
        for (const Case& c : cases) {
            try {
                Recipe::fromJson(c.json, "r.json");
                QFAIL(c.json);
            } catch (const RecipeError& e) {
                QCOMPARE(e.file(), std::string("r.json"));
                QCOMPARE(e.line(), c.line);
                QVERIFY2(e.reason().find(c.reason) != std::string::npos, e.what());
            }
        }
    }

    // The default recipe's mapped_pages are the host250 snapshot's: per process, the pages
    // numa_maps counts as mapped= in the file's VMAs, summed; the median over the processes
    // that map it (the executable's layout is /usr/bin/sleep's).
    void mappedPagesAreTheSnapshotsMedians() {
        const QDir snap(QString(IMMAP_SAMPLES) + "/snapshots/host250");
        std::map<std::string, std::vector<std::uint64_t>> perProcess;
        for (const QString& pid : snap.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
            std::ifstream in((snap.filePath(pid) + "/numa_maps").toStdString());
            if (!in) continue;
            std::stringstream text;
            text << in.rdbuf();
            std::map<std::string, std::uint64_t> sums;
            for (const auto& e : procfs::NumaMapsParser::parse(text.str(), "numa_maps"))
                for (const char* f : {"/libc.so.6", "/ld-linux-x86-64.so.2", "/usr/bin/sleep"})
                    if (e.file.size() >= std::strlen(f) &&
                        e.file.compare(e.file.size() - std::strlen(f), std::string::npos, f) == 0)
                        sums[f] += e.mapped;
            for (const auto& [f, n] : sums)
                perProcess[f].push_back(n);
        }
        auto median = [&](const char* f) -> std::uint64_t {
            auto v = perProcess[f];
            if (v.empty()) return 0;
            std::sort(v.begin(), v.end());
            return v[v.size() / 2];
        };
        const Recipe& r = Recipe::builtinDefault();
        auto pagesOf = [&](const char* name) {
            return r.files[static_cast<std::size_t>(r.fileIndex(name))].mappedPages;
        };
        QCOMPARE(pagesOf("libc.so.6"), median("/libc.so.6"));
        QCOMPARE(pagesOf("ld-linux-x86-64.so.2"), median("/ld-linux-x86-64.so.2"));
        QCOMPARE(pagesOf("execl"), median("/usr/bin/sleep"));
        QVERIFY(r.files[static_cast<std::size_t>(r.fileIndex("execl"))].execOpen ==
                ExecOpen::Binary);
        QVERIFY(r.files[static_cast<std::size_t>(r.fileIndex("ld-linux-x86-64.so.2"))].execOpen ==
                ExecOpen::Interpreter);
    }

    void perCopyIsRead() {
        const Recipe r = Recipe::fromJson(
            "{\"format\": \"immap-recipe\", \"version\": 1, \"files\": [{\"name\": \"a\", "
            "\"per_copy\": true}, {\"name\": \"b\"}], \"steps\": [{\"op\": \"work\", "
            "\"weight\": 1}]}",
            "r.json");
        QVERIFY(r.files[0].perCopy);
        QVERIFY(!r.files[1].perCopy);
    }

    void shippedSampleIsTheBuiltinDefault() {
        const Recipe file =
            Recipe::fromFile(std::string(IMMAP_SAMPLES) + "/recipes/execl-glibc236.json");
        QCOMPARE(file.steps.size(), Recipe::builtinDefault().steps.size());
        QCOMPARE(file.totalWeight(), Recipe::builtinDefault().totalWeight());
    }
};

IMMAP_TEST_SUITE(TestRecipe);
#include "TestRecipe.moc"
