#!/usr/bin/env python3
"""How late swiftdash writes a minute change, measured at the terminal (issue: On time).

Runs the given swiftdash binary on a clock-only home screen in a private tmux server, and
timestamps every chunk of bytes the pane writes (tmux pipe-pane into a tiny stamping
process). For each minute boundary it reports how long after the boundary the first byte
arrived. A benchmark, not a test: run it by hand (it takes N minutes).

    python3 Tests/perf/ontime.py .build/release/swiftdash --boundaries 20
"""
import argparse, os, statistics, subprocess, sys, tempfile, time

STAMP = r'''
import os, sys, time
out = open(sys.argv[1], "a", buffering=1)
while True:
    b = os.read(0, 65536)
    if not b:
        break
    out.write("%.6f %d\n" % (time.time(), len(b)))
'''

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("--boundaries", type=int, default=20)
    ap.add_argument("--size", default="160x48")
    a = ap.parse_args()
    w, h = a.size.split("x")
    tmp = tempfile.mkdtemp(prefix="ontime-")
    cfg = os.path.join(tmp, "config", "swiftdash")
    os.makedirs(cfg)
    with open(os.path.join(cfg, "home.yaml"), "w") as f:
        f.write("tiles:\n  - family: small\n    widget: clock\n")
    stamp = os.path.join(tmp, "stamp.py")
    with open(stamp, "w") as f:
        f.write(STAMP)
    log = os.path.join(tmp, "stamps.log")
    sock = "ontime-%d" % os.getpid()
    env = "env HOME=%s XDG_CONFIG_HOME=%s XDG_CACHE_HOME=%s/cache TERM=tmux-256color LANG=C.UTF-8" % (tmp, os.path.dirname(cfg), tmp)
    tmux = ["tmux", "-L", sock, "-f", "/dev/null"]
    subprocess.run(tmux + ["new-session", "-d", "-s", "s", "-x", w, "-y", h, "sleep 1; %s %s" % (env, os.path.abspath(a.binary))], check=True)
    subprocess.run(tmux + ["pipe-pane", "-o", "-t", "s", "python3 %s %s" % (stamp, log)], check=True)
    try:
        start = time.time()
        first = (int(start) // 60 + 1) * 60
        if first - start < 3:
            first += 60
        last = first + 60 * (a.boundaries - 1)
        while time.time() < last + 3:
            time.sleep(1)
    finally:
        subprocess.run(tmux + ["kill-server"])
    stamps = [tuple(map(float, l.split())) for l in open(log)]
    late = []
    for b in range(first, last + 1, 60):
        after = [t for t, _ in stamps if b <= t < b + 5]
        late.append((after[0] - b) * 1000 if after else float("inf"))
    late_sorted = sorted(late)
    p99 = late_sorted[min(len(late_sorted) - 1, int(round(0.99 * (len(late_sorted) - 1))))]
    print("boundaries: %d" % len(late))
    print("first byte after the minute (ms): " + " ".join("%.2f" % x for x in late))
    print("median %.2f ms, p99 %.2f ms, max %.2f ms" % (statistics.median(late), p99, max(late)))

if __name__ == "__main__":
    main()
