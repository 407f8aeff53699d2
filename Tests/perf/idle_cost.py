#!/usr/bin/env python3
"""Idle cost of an extension process: start-to-first-answer time, then VmRSS and Pss after 3 s idle.

Usage: Tests/perf/idle_cost.py BIN_DIR HELLO_BIN   (release builds; see the report in issue 26)
Each program is started the way swiftdash starts it (stdin/stdout pipes, SWIFTDASH_STATE set),
sent the first requests the runtime sends it (the host: a timeline; an extension: describe and\na timeline), timed to the last answer line, then left idle.
"""
import json, os, subprocess, sys, tempfile, time

CONTEXT = {"family": "medium", "width": 40, "height": 6, "now": 0, "isPreview": False,
           "colorScheme": "dark", "timeZone": "UTC", "environment": {}}


def measure(name, argv, requests, runs=5):
    times, rss, pss = [], 0, 0
    for i in range(runs):
        state = tempfile.mkdtemp(prefix="idlecost-")
        env = {"PATH": "/usr/bin:/bin", "HOME": state, "SWIFTDASH_STATE": state}
        t0 = time.perf_counter()
        p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
        for request in requests:
            p.stdin.write((json.dumps(request) + "\n").encode())
            p.stdin.flush()
            line = p.stdout.readline()
            if "result" not in json.loads(line):
                sys.exit(f"{name}: {line[:300]!r}")
        times.append((time.perf_counter() - t0) * 1000)
        if i == runs - 1:
            time.sleep(3)
            with open(f"/proc/{p.pid}/status") as f:
                rss = next(int(l.split()[1]) for l in f if l.startswith("VmRSS"))
            with open(f"/proc/{p.pid}/smaps_rollup") as f:
                pss = next(int(l.split()[1]) for l in f if l.startswith("Pss:"))
        p.kill()
        p.wait()
    times.sort()
    print(f"| {name} | {times[len(times) // 2]:.1f} ms (min {times[0]:.1f}) | {rss / 1024:.1f} MB | {pss / 1024:.1f} MB |")


def main():
    bins, hello = sys.argv[1], sys.argv[2]
    print("| process | first answer (median of 5) | VmRSS idle 3 s | Pss idle 3 s |")
    print("|---|---|---|---|")
    measure("provider host (swiftdash-fetch --serve)", [f"{bins}/swiftdash-fetch", "--serve"],
            [{"id": 1, "method": "timeline", "protocol": 1,
              "params": {"kind": "clock", "configuration": {"values": {}}, "context": CONTEXT}}])
    measure("swift-hello", [hello], extension("hello"))
    measure("swiftdashkit-fixture", [f"{bins}/swiftdashkit-fixture"], extension("kit-forecast"))


def extension(kind):
    """What the runtime sends an extension first: describe, then a tile's timeline."""
    return [{"id": 1, "method": "describe", "protocol": 1},
            {"id": 2, "method": "timeline", "protocol": 1,
             "params": {"kind": kind, "config": {}, "context": CONTEXT}}]


main()
