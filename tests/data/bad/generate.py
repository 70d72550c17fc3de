#!/usr/bin/env python3
"""Writes the broken inputs of tests/data/bad (README.md there says what each one is).
Deterministic: run it again and git sees no change. Big and filesystem-shaped cases (the 10 MB
line, symlink loops) are made by TestBadInputs itself instead."""
import io
import os
import random
import tarfile

HERE = os.path.dirname(os.path.abspath(__file__))
rng = random.Random(8)
MAPS = (b"7f0000000000-7f0000002000 r--p 00000000 fe:00 1234 /usr/lib/libc.so.6\n"
        b"7f0000002000-7f0000010000 r-xp 00002000 fe:00 1234 /usr/lib/libc.so.6\n")
HEADER = (b'immap-trace 2 {"source":"simulate","topology":"t","policy":"single","recipe":"r",'
          b'"copies":1,"seed":"1","duration_ms":1,"walkers_per_s":0,"time_origin_ns":"0",'
          b'"files":["libc.so.6"],"trees_per_file":1,"locks":[{"name":"libc.so.6","file":0}],'
          b'"walker_file":0,"params":{}}\n')
BT = (b"# immap-trace-bt v1 fields: t_ns cpu pid comm event args\n"
      b"1000 0 100 execl exec file=./execl\n"
      b"2000 0 100 execl open fd=3 path=/usr/lib/libc.so.6\n")


def binary(n):
    return bytes(rng.randrange(256) for _ in range(n))


def write(name, data):
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(data)


def tar(name, members, gz=False, cut_after=None):
    """members: (path, data) for a file, (path, tarfile.SYMTYPE or LNKTYPE, target) for a link.
    cut_after=K: the archive stops right after member K's data, without its end marker."""
    buf = io.BytesIO()
    ends = []
    with tarfile.open(fileobj=buf, mode="w:gz" if gz else "w", format=tarfile.GNU_FORMAT) as t:
        for member in members:
            info = tarfile.TarInfo(member[0])
            info.mtime = 0
            if len(member) == 3:
                info.type, info.linkname = member[1], member[2]
                t.addfile(info)
            else:
                info.size = len(member[1])
                t.addfile(info, io.BytesIO(member[1]))
            ends.append(t.offset)
    data = buf.getvalue()
    if cut_after is not None:
        data = data[: ends[cut_after]]
    if gz:  # gzip stores a timestamp: zero it so the file is reproducible
        data = data[:4] + b"\0\0\0\0" + data[8:]
    write(name, data)


# maps
write("maps-empty", b"")
write("maps-binary", binary(600))
write("maps-truncated", MAPS + b"7f0000010000-7f00000")
write("maps-nul", MAPS + b"7f0000010000-7f0000\0\0\0011000 r--p 00010000 fe:00 1234 /x\n")
write("maps-over64", MAPS + b"7f0000010000-1ffffffffffffffff r--p 00000000 fe:00 1234 /x\n")
write("maps-inode-over64", MAPS + b"7f0000010000-7f0000011000 r--p 00000000 fe:00 "
      b"99999999999999999999 /x\n")
write("maps-reversed", MAPS + b"7f0000020000-7f0000010000 r--p 00000000 fe:00 1234 /x\n")
write("maps-utf8-path", MAPS + b"7f0000010000-7f0000011000 r--p 00000000 fe:00 77 /lib/\xff\xfe\xc3(.so\n")
# Last lines cut inside a field, no newline after them: each still parses (libc.so.6 cut to
# libc.so, N1=25 to N1=2, 0-15 to 0-1, processor 12 to 1, 60 to 6, len=0x20000 to 0x2000), so
# the reader accepts it and warns that the file may be cut there.
write("maps-cut-field", MAPS + b"7f0000010000-7f0000011000 r--p 00010000 fe:00 1234 /usr/lib/libc.so")
# numa_maps, status, stat (loaded beside a maps file in a snapshot directory)
write("numa_maps-binary", binary(400))
write("numa_maps-truncated", b"7f0000000000 default file=/usr/lib/libc.so.6 mapped=2 N0=")
write("numa_maps-over64", b"7f0000000000 default file=/x N0=99999999999999999999\n")
write("numa_maps-nul", b"7f0000000000 default file=/x\0 N0=\0\n")
write("numa_maps-cut-field", b"7f0000000000 default file=/usr/lib/libc.so.6 mapped=25 N1=2")
write("status-binary", binary(400))
write("status-over64", b"Name:\tx\nTgid:\t99999999999999999999\n")
write("status-reversed", b"Name:\tx\nTgid:\t1\nCpus_allowed_list:\t7-0\n")
write("status-cut-field", b"Name:\tsleep\nTgid:\t101\nCpus_allowed_list:\t0-1")
write("stat-binary", binary(300))
write("stat-truncated", b"100 (slee")
# field 39 (processor), the one the loader uses, past 64 bits
write("stat-over64", b"100 (x) S" + b" 1" * 35 + b" 99999999999999999999999 0\n")
# field 39 (processor) cut from 12 to 1, the rest of the line gone
write("stat-cut-field", b"101 (sleep) S" + b" 1" * 35 + b" 1")
# op scripts
write("ops-binary", binary(500))
write("ops-truncated", b"i 1 0 10\ni 2 5")
write("ops-nul", b"i 1 0 10\ni 2\0 5 6\n")
write("ops-over64", b"i 1 0 10\ni 2 0 18446744073709551616\n")
write("ops-reversed", b"i 1 0 10\ni 2 9 3\n")
write("ops-duplicate", b"i 1 0 10\ni 1 2 3\n")
write("ops-cut-field", b"i 1 0 10\ni 2 5 6")
# topologies
write("topology-empty.xml", b"")
write("topology-binary.xml", binary(700))
with open(os.path.join(HERE, "../../../samples/topologies/host-2cpu.xml"), "rb") as f:
    xml = f.read()
write("topology-truncated.xml", xml[: len(xml) // 2])
# an object with a cpuset but no complete_cpuset: hwloc 2.9 crashed on it
at = xml.index(b' complete_cpuset="')
write("topology-no-complete-cpuset.xml", xml[:at] + xml[xml.index(b'"', xml.index(b'"', at) + 1) + 1:])
# hwloc 2.9's built-in XML importer (no libhwloc-plugins, or HWLOC_LIBXML_IMPORT=0) segfaulted
# on these two: an unclosed start tag, and the sample cut inside its version attribute
write("topology-open-tag.xml", b'<topology version="2.0"')
write("topology-cut-attribute.xml", xml[:101])
# recipes
write("recipe-empty.json", b"")
write("recipe-binary.json", binary(500))
# measurements and fits: the JSON error's line, not its byte offset
write("measured-truncated.json", b'{\n  "format": "immap-measured",\n  "version": 1,\n  "points": [\n    { "copies": 1,')
write("fit-truncated.json", b'{\n  "format": "immap-fit",\n  "version": 1,\n  "params": {\n    "mem_local_ns": ')
write("recipe-truncated.json", b'{\n  "format": "immap-recipe",\n  "version": 1,\n  "files": [\n    { "na')
write("recipe-over64.json", b'{\n  "format": "immap-recipe",\n  "version": 99999999999999999999999,\n  "files": []\n}\n')
# native traces
write("trace-empty.trace", b"")
write("trace-binary.trace", binary(800))
write("trace-version.trace", HEADER.replace(b"immap-trace 2", b"immap-trace 7") + b"0 eb 0 0\n")
# version 1 had no end record: refused with that reason, not read as if whole
write("trace-version1.trace", HEADER.replace(b"immap-trace 2", b"immap-trace 1") + b"0 eb 0 0\n")
# whole lines, but no end record: a run killed or a file cut on a line boundary
write("trace-no-end.trace", HEADER + b"0 ws -1 -1\n0 eb 0 0\n400000 ee 0 0\n")
write("trace-end-count.trace", HEADER + b"0 eb 0 0\n5 ee 0 0\n1000000 en -1 -1 3\n")
write("trace-after-end.trace", HEADER + b"0 eb 0 0\n1000000 en -1 -1 1\n5 ee 0 0\n")
write("trace-negative-cpu.trace", HEADER + b"0 eb 0 0\n5 ee 0 -5\n1000000 en -1 -1 2\n")
write("trace-negative-tree.trace", HEADER + b"0 eb 0 0\n10 ti 0 0 0 -1 0 1 3 0\n")
# the walker (agent copies + 0 = 1) ends before it arrived: a negative latency
write("trace-walk-backwards.trace",
      HEADER + b"0 ws -1 -1\n100 wa 1 -1\n101 la 1 -1 0 r\n101 wb 1 -1\n102 lr 1 -1 0\n"
      b"50 we 1 -1\n1000000 en -1 -1 6\n")
write("trace-header-array.trace", b"immap-trace 2 [1,2]\n")
write("trace-header-seed.trace", HEADER.replace(b'"seed":"1"', b'"seed":"-1zz"'))
write("trace-header-walkers.trace", HEADER.replace(b'"walkers_per_s":0', b'"walkers_per_s":-1e308'))
write("trace-header-cpus.trace", HEADER.replace(b'"params":{}', b'"params":{},"copy_cpus":[-5],"copy_nodes":[0]'))
write("trace-lying.trace", HEADER + b"0 eb 0 0\n0 event=exec pid=1 cpu=0 version=2\n")
write("trace-truncated.trace", HEADER + b"0 eb 0 0\n10 la 0 0 0 w\n20 lr 0 0")
write("trace-nul.trace", HEADER + b"0 eb 0 0\n10 lw 0\0 0 0 w\n")
write("trace-over64.trace", HEADER + b"0 eb 0 0\n99999999999999999999999 ee 0 0\n")
write("trace-reversed.trace", HEADER + b"0 eb 0 0\n10 ti 0 0 0 0 1 9 3 0\n")
write("trace-duplicate.trace", HEADER + b"0 eb 0 0\n10 ti 0 0 0 0 1 0 3 0\n11 ti 0 0 0 0 1 0 3 0\n")
write("trace-header-duration.trace", HEADER.replace(b'"duration_ms":1', b'"duration_ms":1e300')
      + b"-9000000000000000000 ws 0 0\n")
# Any 32-bit VMA id is valid (replay keeps a slot per VMA in a tree); removing one never
# inserted is not.
write("trace-vma-id.trace", HEADER + b"0 eb 0 0\n1 tr 0 0 0 0 4000000000 0 3 0\n")
write("trace-header-copies.trace", HEADER.replace(b'"copies":1', b'"copies":1e300'))
# bpftrace recordings
write("bt-empty.txt", b"")
write("bt-binary.txt", binary(600))
write("bt-truncated.txt", BT + b"3000 0 100 execl mmap addr=0x7f0000000000 len=0x2")
write("bt-nul.txt", BT + b"3000 0 100 execl mmap addr=0x7f00\0 len=0x2000 prot=0x1 flags=0x2 fd=3 off=0x0\n")
write("bt-over64.txt", BT + b"3000 0 100 execl mmap addr=0x7f0000000000 len=0x1ffffffffffffffff "
      b"prot=0x1 flags=0x2 fd=3 off=0x0\n")
write("bt-time-over64.txt", BT + b"-9000000000000000000 0 100 execl exit_mmap\n")
write("bt-cut-field.txt", BT + b"3000 0 100 execl mmap addr=0x7f0000000000 prot=0x1 flags=0x2 "
      b"fd=3 off=0x0 len=0x2000")
# archives
good = [("100/maps", MAPS)]
tar("archive-dotdot.tar", good + [("../escape/200/maps", MAPS)])
tar("archive-absolute.tar", good + [("/etc/200/maps", MAPS)])
tar("archive-dotdot-inner.tar.gz", good + [("snap/200/../../200/maps", MAPS)], gz=True)
tar("archive-duplicate-pid.tar", good + [("other/100/maps", MAPS)])
tar("archive-bad-maps.tar", [("100/maps", MAPS + b"zzzz\n")])
tar("tmp-archive.tar.gz", good, gz=True)
with open(os.path.join(HERE, "tmp-archive.tar.gz"), "rb") as f:
    gz = f.read()
os.remove(os.path.join(HERE, "tmp-archive.tar.gz"))
write("archive-truncated.tar.gz", gz[: len(gz) // 2])
write("archive-binary.tar.gz", b"\x1f\x8b\x08\x00" + binary(400))
NUMA = b"7f0000000000 default file=/usr/lib/libc.so.6 mapped=2 N0=2\n"
# Cut at a member boundary, after 101/maps: 101's numa_maps and all of 102 are gone.
tar("archive-cut-member.tar", [("100/maps", MAPS), ("100/numa_maps", NUMA), ("101/maps", MAPS),
                               ("101/numa_maps", NUMA), ("102/maps", MAPS)], cut_after=2)
# A hard link and a symbolic link for a pid's maps, a linked pid directory, a linked topology.
tar("archive-links.tar", [("100/maps", MAPS), ("101/maps", tarfile.LNKTYPE, "100/maps"),
                          ("102/maps", tarfile.SYMTYPE, "../100/maps"),
                          ("103", tarfile.SYMTYPE, "100"),
                          ("topology.xml", tarfile.SYMTYPE, "/etc/passwd")])
# An archive bomb's first step: one entry header claiming 3 GiB (its data left out). The total
# cap on unpacked bytes refuses it at the header, before inflating or allocating anything.
bomb = tarfile.TarInfo("junk")
bomb.size = 3 << 30
bomb.mtime = 0
write("archive-expands-past-cap.tar", bomb.tobuf(tarfile.GNU_FORMAT))
# workshop scenarios (opened by immap-lab: File > Open Scenario, --scenario)
write("scenario-empty.json", b"")
write("scenario-binary.json", binary(500))
write("scenario-truncated.json", b'{\n  "version": 1,\n  "policies": ["single",\n    "split-')
write("scenario-unknown-key.json", b'{\n  "version": 1,\n  "topolgy": "host"\n}\n')
write("scenario-over64.json", b'{\n  "version": 1,\n  "copies": [1, 99999999999999999999999]\n}\n')
write("scenario-version.json", b'{\n  "version": 7\n}\n')
write("scenario-recipe-device.json", b'{\n  "version": 1,\n  "recipe": "/dev/zero"\n}\n')
# valid scenarios naming broken files beside them: the message names the inner file and line
write("scenario-bad-recipe.json", b'{\n  "version": 1,\n  "recipe": "recipe-truncated.json"\n}\n')
write("scenario-bad-source.json", b'{\n  "version": 1,\n  "source": "maps:maps-reversed"\n}\n')
write("scenario-bad-topology.json",
      b'{\n  "version": 1,\n  "topology": "xml:topology-truncated.xml"\n}\n')
