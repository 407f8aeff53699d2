#!/usr/bin/env python3
"""How long a key waits while a thousand loads finish together (issue 25), measured in tmux.

Runs the given swiftdash binary in a private tmux server on a home of N tiles (clocks and notes:
local widgets, no network), with an empty cache so every load starts at once. Each round presses
R (reload all: N loads that finish together), waits a moment so the results are arriving, then
presses ? and times how long until the help overlay's title reaches the terminal (tmux
pipe-pane stamps the program's output; the time includes `tmux send-keys`), then Esc. A benchmark, not a
test: run it by hand.

    python3 Tests/perf/bulk_keys.py .build/release/swiftdash --tiles 1000 --rounds 50
"""
import argparse, os, random, subprocess, sys, tempfile, time

# Stamps the moment the pane's output draws the help overlay's title (tmux pipe-pane feeds it
# every byte the program writes), so a key's latency is measured at the terminal, not by polling.
STAMP = r'''
import os, sys, time
out = open(sys.argv[1], "a", buffering=1)
tail = b""
while True:
    b = os.read(0, 65536)
    if not b:
        break
    if b"swiftdash keys" in tail + b:
        out.write("%.6f\n" % time.time())
        tail = b""
    else:
        tail = (tail + b)[-32:]
'''

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("--tiles", type=int, default=1000)
    ap.add_argument("--rounds", type=int, default=50)
    ap.add_argument("--size", default="160x48")
    ap.add_argument("--idle", action="store_true", help="no reloads: the floor of the measurement")
    ap.add_argument("--keys", type=int, default=1, help="keys timed after each R")
    a = ap.parse_args()
    w, h = a.size.split("x")
    tmp = tempfile.mkdtemp(prefix="bulkkeys-")
    cfg = os.path.join(tmp, "config", "swiftdash")
    os.makedirs(cfg)
    stamp = os.path.join(tmp, "stamp.py")
    with open(stamp, "w") as f:
        f.write(STAMP)
    log = os.path.join(tmp, "stamps.log")
    open(log, "w").close()
    with open(os.path.join(cfg, "home.yaml"), "w") as f:
        f.write("tiles:\n")
        for i in range(a.tiles):
            f.write("  - clock\n" if i % 2 == 0 else "  - note\n")
    sock = "bulkkeys-%d" % os.getpid()
    env = "env HOME=%s XDG_CONFIG_HOME=%s XDG_CACHE_HOME=%s/cache TERM=tmux-256color LANG=C.UTF-8" % (
        tmp, os.path.dirname(cfg), tmp)
    tmux = ["tmux", "-L", sock, "-f", "/dev/null"]

    def screen():
        return subprocess.run(tmux + ["capture-pane", "-p", "-t", "s"], capture_output=True, text=True).stdout

    def wait(pred, limit=30.0):
        t0 = time.time()
        while time.time() - t0 < limit:
            if pred(screen()):
                return True
            time.sleep(0.001)
        return False

    def stamps():
        return [float(l) for l in open(log) if l.strip()]

    def help_key():
        """? pressed: the time until the help's title reaches the terminal."""
        seen = len(stamps())
        t0 = time.time()
        subprocess.run(tmux + ["send-keys", "-t", "s", "?"])
        while time.time() - t0 < 30:
            now = stamps()
            if len(now) > seen:
                return (now[seen] - t0) * 1000
            time.sleep(0.002)
        return float("inf")

    def close_help():
        subprocess.run(tmux + ["send-keys", "-t", "s", "Escape"])
        wait(lambda s: "swiftdash keys" not in s)

    subprocess.run(tmux + ["new-session", "-d", "-s", "s", "-x", w, "-y", h,
                           "%s %s" % (env, os.path.abspath(a.binary))], check=True)
    subprocess.run(tmux + ["pipe-pane", "-o", "-t", "s", "python3 %s %s" % (stamp, log)], check=True)
    lat = []
    start = time.time()
    try:
        # The first screen, then the first loads (all at once: the cache is empty).
        if not wait(lambda s: "Note" in s or ":" in s):
            sys.exit("no home screen: " + screen())
        lat.append(help_key())
        close_help()
        for _ in range(a.rounds):
            if not a.idle:
                subprocess.run(tmux + ["send-keys", "-t", "s", "R"])
            for _ in range(a.keys):
                time.sleep(random.uniform(0.0, 0.05))
                lat.append(help_key())
                close_help()
    finally:
        subprocess.run(tmux + ["kill-server"])
    s = sorted(lat)
    def pct(p):
        return s[min(len(s) - 1, int(round(p * (len(s) - 1))))]
    print("%d tiles, %d keys pressed while reloads of every tile finished (%.0f s):" % (a.tiles, len(s), time.time() - start))
    print("  key to screen: median %.1f ms, p95 %.1f ms, p99 %.1f ms, max %.1f ms (target: p99 under 50 ms)" % (
        pct(0.5), pct(0.95), pct(0.99), s[-1]))

if __name__ == "__main__":
    main()
