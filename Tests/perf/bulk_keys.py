#!/usr/bin/env python3
"""How long a key waits while a thousand loads finish together (issue 25), measured in tmux.

Runs the given swiftdash binary in a private tmux server on a home of N tiles (clocks and notes:
local widgets, no network), with an empty cache so every load starts at once. Each round presses
R (reload all: N loads that finish together), waits a moment so the results are arriving, then
presses ? and times how long until the help overlay is on the screen, and Esc until it is gone
(polling `tmux capture-pane`; the poll's own cost, a few ms, is included). A benchmark, not a
test: run it by hand.

    python3 Tests/perf/bulk_keys.py .build/release/swiftdash --tiles 1000 --rounds 50
"""
import argparse, os, random, subprocess, sys, tempfile, time

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("--tiles", type=int, default=1000)
    ap.add_argument("--rounds", type=int, default=50)
    ap.add_argument("--size", default="160x48")
    a = ap.parse_args()
    w, h = a.size.split("x")
    tmp = tempfile.mkdtemp(prefix="bulkkeys-")
    cfg = os.path.join(tmp, "config", "swiftdash")
    os.makedirs(cfg)
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

    def timed_key(key, pred):
        t0 = time.time()
        subprocess.run(tmux + ["send-keys", "-t", "s", key])
        ok = wait(pred)
        return (time.time() - t0) * 1000 if ok else float("inf")

    subprocess.run(tmux + ["new-session", "-d", "-s", "s", "-x", w, "-y", h,
                           "%s %s" % (env, os.path.abspath(a.binary))], check=True)
    lat = []
    start = time.time()
    try:
        # The first screen, then the first loads (all at once: the cache is empty).
        if not wait(lambda s: "Note" in s or ":" in s):
            sys.exit("no home screen: " + screen())
        lat.append(timed_key("?", lambda s: "swiftdash keys" in s))
        lat.append(timed_key("Escape", lambda s: "swiftdash keys" not in s))
        for _ in range(a.rounds):
            subprocess.run(tmux + ["send-keys", "-t", "s", "R"])
            time.sleep(random.uniform(0.0, 0.05))
            lat.append(timed_key("?", lambda s: "swiftdash keys" in s))
            lat.append(timed_key("Escape", lambda s: "swiftdash keys" not in s))
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
