#!/usr/bin/env python3
"""Counts the folios of FILE that are mapped by some process, and their pages, from
/proc/PID/maps, /proc/PID/pagemap and /proc/kpageflags (root: page frame numbers are hidden
otherwise), and how many sit on the active and on the inactive LRU list. Only mapped folios
cost an rmap walk when reclaim scans them: folio_referenced() returns before walking when the
folio has no mappings."""
import os
import struct
import sys

KPF_LRU = 1 << 5
KPF_ACTIVE = 1 << 6
KPF_COMPOUND_TAIL = 1 << 16


def file_pfns(pid, path):
    pfns = set()
    try:
        with open(f"/proc/{pid}/maps") as maps:
            ranges = [l.split() for l in maps if l.rstrip().endswith(path)]
        if not ranges:
            return pfns
        with open(f"/proc/{pid}/pagemap", "rb") as pm:
            for r in ranges:
                lo, hi = (int(x, 16) for x in r[0].split("-"))
                pm.seek(lo // 4096 * 8)
                data = pm.read((hi - lo) // 4096 * 8)
                for (e,) in struct.iter_unpack("<Q", data):
                    if e >> 63 & 1 and e >> 61 & 1:  # present, and a file page (not COW anon)
                        pfns.add(e & ((1 << 55) - 1))
    except (FileNotFoundError, ProcessLookupError, PermissionError):
        pass
    return pfns


def main():
    path = os.path.realpath(sys.argv[1])
    pfns = set()
    for pid in filter(str.isdigit, os.listdir("/proc")):
        pfns |= file_pfns(pid, path)
    heads = set()
    with open("/proc/kpageflags", "rb") as kf:

        def flags(pfn):
            kf.seek(pfn * 8)
            return struct.unpack("<Q", kf.read(8))[0]

        for pfn in pfns:
            head = pfn
            while flags(head) & KPF_COMPOUND_TAIL:  # a large folio's tail: find its head
                head -= 1
            heads.add(head)
        active = sum(1 for h in heads if flags(h) & KPF_LRU and flags(h) & KPF_ACTIVE)
        inactive = sum(1 for h in heads if flags(h) & KPF_LRU and not flags(h) & KPF_ACTIVE)
    folios = len(heads)
    print(f"{path} mapped_pages {len(pfns)} mapped_folios {folios} active {active} inactive {inactive}")


main()
