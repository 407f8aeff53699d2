#!/usr/bin/env python3
"""How long a key waits while a thousand loads finish together (issue 25.3), measured in tmux.

Runs the given swiftdash binary in a private tmux server on a home of N tiles (clocks and notes:
local widgets, no network), with an empty cache so every load starts at once. Each round presses
R (reload all: N loads that finish together) and then, until the program's CPU use goes quiet
(the reload is over), presses ? and Esc in turn at random moments; each ? is timed from the moment
it is sent until the help overlay's title reaches tmux.

The harness is a tmux control-mode client (`tmux -C attach`): it sends the keys through it and
hears every byte the program writes as a `%output` line the moment tmux reads it, so no process is
started per key and nothing polls (the polling harness of the seventh session had a floor of its
own, p99 ~123 ms on a busy machine; `--poll` keeps it). `--idle` presses no R: the floor of the
measurement on this machine. `--starts N` starts the program N times with an empty cache instead
and times keys during its first loads. A benchmark, not a test: run it by hand.

    python3 Tests/perf/bulk_keys.py .build/release/swiftdash --tiles 1000 --rounds 40
    python3 Tests/perf/bulk_keys.py .build/release/swiftdash --tiles 1000 --starts 40
    python3 Tests/perf/bulk_keys.py .build/release/swiftdash --tiles 1000 --idle --keys 300
"""
import argparse, os, random, re, subprocess, sys, tempfile, threading, time

TITLE = b"swiftdash keys"
OCTAL = re.compile(rb"\\([0-7]{3})")


def unescape(data):
    """tmux writes bytes below 32 and the backslash of `%output` as three octal digits."""
    return OCTAL.sub(lambda m: bytes([int(m.group(1), 8)]), data)


class Control:
    """A tmux control-mode client: commands in, the pane's output (stamped on arrival) out."""

    def __init__(self, tmux, session):
        self.p = subprocess.Popen(tmux + ["-C", "attach", "-t", session], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, bufsize=0)
        self.cond = threading.Condition()
        self.tail = b""
        self.seen = 0        # output chunks that held the help's title
        self.stamp = None    # when the last one arrived (time.monotonic)
        self.shown = False   # whether the last title/clear seen leaves the help on screen
        self.out = 0         # output chunks in all
        self.blocks = []     # the output of each command, in order
        self.marks = 0
        threading.Thread(target=self.read, daemon=True).start()

    def read(self):
        buf, block = b"", []
        while True:
            b = os.read(self.p.stdout.fileno(), 65536)
            if not b:
                return
            now = time.monotonic()
            buf += b
            *lines, buf = buf.split(b"\n")
            for line in lines:
                if line.startswith(b"%begin "):
                    block = []
                    continue
                if line.startswith(b"%end ") or line.startswith(b"%error "):
                    with self.cond:
                        self.blocks.append(block)
                        self.cond.notify_all()
                    continue
                if not line.startswith(b"%output "):
                    if not line.startswith(b"%"):
                        block.append(line)
                    continue
                data = unescape(line.split(b" ", 2)[2] if line.count(b" ") >= 2 else b"")
                with self.cond:
                    self.out += 1
                    if TITLE in self.tail + data:
                        self.seen += 1
                        self.stamp = now
                        self.tail = b""
                    else:
                        self.tail = (self.tail + data)[-len(TITLE):]
                    self.cond.notify_all()

    def command(self, text):
        self.p.stdin.write(text.encode() + b"\n")

    def screen(self):
        """The pane's text now (capture-pane, behind a marker that finds its answer)."""
        self.marks += 1
        mark = b"mark-%d" % self.marks
        self.command("display -p %s" % mark.decode())
        self.command("capture-pane -p -t s")
        with self.cond:
            def answered():
                return [i for i, b in enumerate(self.blocks) if b == [mark] and len(self.blocks) > i + 1]
            self.cond.wait_for(answered)
            i = answered()[0]
            text = b"\n".join(self.blocks[i + 1])
            del self.blocks[:]
            return text

    def key(self, name):
        self.command("send-keys -t s %s" % name)

    def help_key(self, limit=30.0):
        """? pressed: ms from sending it until the help's title reaches tmux."""
        with self.cond:
            seen = self.seen
        t0 = time.monotonic()
        self.key("?")
        with self.cond:
            if not self.cond.wait_for(lambda: self.seen > seen, timeout=limit):
                return float("inf")
            return (self.stamp - t0) * 1000

    def close(self):
        try:
            self.command("kill-server")
            self.p.wait(timeout=5)
        except Exception:
            self.p.kill()


def cpu_ticks(pid):
    """User and system ticks of the process, all its threads."""
    try:
        f = open("/proc/%d/stat" % pid).read().rsplit(")", 1)[1].split()
        return int(f[11]) + int(f[12])
    except OSError:
        return 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("--tiles", type=int, default=1000)
    ap.add_argument("--rounds", type=int, default=40, help="reloads (with --poll or --idle: keys)")
    ap.add_argument("--size", default="160x48")
    ap.add_argument("--idle", action="store_true", help="no reloads: the floor of the measurement")
    ap.add_argument("--starts", type=int, default=0,
                    help="instead of reloads: starts with an empty cache, keys during the first loads")
    ap.add_argument("--keys", type=int, default=200, help="with --idle: keys to time")
    ap.add_argument("--gap", type=float, default=0.04, help="most seconds between a key and the next")
    ap.add_argument("--poll", action="store_true", help="the seventh session's harness (pipe-pane, polling)")
    a = ap.parse_args()
    if a.poll:
        return poll_main(a)
    w, h = a.size.split("x")
    tmp = tempfile.mkdtemp(prefix="bulkkeys-")
    cfg = write_home(tmp, a.tiles)
    sock = "bulkkeys-%d" % os.getpid()
    tmux = ["tmux", "-L", sock, "-f", "/dev/null"]

    def tmux_run(*args):
        subprocess.run(tmux + list(args), check=True)

    def pane_pid():
        return int(subprocess.run(tmux + ["display", "-p", "-t", "s", "#{pane_pid}"], capture_output=True,
                                  text=True).stdout)
    tmux_run("new-session", "-d", "-s", "s", "-x", w, "-y", h, command(tmp, cfg, a.binary, ""))
    pid = pane_pid()
    c = Control(tmux, "s")
    lat, since = [], []
    start = time.monotonic()
    windows = []

    def press(t_r):
        time.sleep(random.uniform(0.0, a.gap))
        ms = c.help_key()
        lat.append(ms)
        since.append(time.monotonic() - t_r if t_r else 0)
        time.sleep(random.uniform(0.0, a.gap))
        c.key("Escape")
        while TITLE in c.screen():
            time.sleep(0.002)

    def quiet(pid, span=0.3):
        """Whether the program used no more than 2 % of a core over `span` seconds."""
        t0 = cpu_ticks(pid)
        time.sleep(span)
        return cpu_ticks(pid) - t0 <= max(0, int(span * os.sysconf("SC_CLK_TCK") * 0.02))

    try:
        # The first screen and the first loads (the cache is empty), then quiet.
        t_first = time.monotonic()
        while not quiet(pid):
            if time.monotonic() - t_first > 120:
                sys.exit("the program never went quiet")
        if a.idle:
            for _ in range(a.keys):
                press(None)
        elif a.starts:
            # The program again with an empty cache and state: its first loads all at once, and
            # keys from its first frame until it is quiet.
            for n in range(a.starts):
                shown = c.out
                tmux_run("respawn-pane", "-k", "-t", "s", command(tmp, cfg, a.binary, "%d" % n))
                t_r = time.monotonic()
                pid = pane_pid()
                with c.cond:
                    c.cond.wait_for(lambda: c.out > shown + 2, timeout=30)
                while True:
                    t0 = time.monotonic()
                    press(t_r)
                    if quiet(pid, 0.2):
                        break
                windows.append(time.monotonic() - t_r)
        else:
            # How long a reload lasts with no keys: from R until the program is quiet again.
            c.key("R")
            t_r = time.monotonic()
            while not quiet(pid, 0.1):
                pass
            window = time.monotonic() - t_r - 0.1
            for _ in range(a.rounds):
                c.key("R")
                t_r = time.monotonic()
                # Keys over the whole reload window, then quiet before the next round.
                while time.monotonic() - t_r < window:
                    press(t_r)
                while not quiet(pid):
                    pass
                windows.append(window)
    finally:
        c.close()
    s = sorted(lat)

    def pct(p):
        return s[min(len(s) - 1, int(round(p * (len(s) - 1))))]
    during = [ms for ms, t in zip(lat, since) if t < windows[0]] if windows and not a.starts else lat
    s = sorted(during)
    if a.starts:
        during = lat
        s = sorted(during)
        print("%d tiles, %d starts with an empty cache (first loads: %.1f s median, with keys), %d keys during them:" % (
            a.tiles, len(windows), sorted(windows)[len(windows) // 2], len(s)))
    elif a.idle:
        print("%d tiles, idle (no reload), %d keys (%.0f s):" % (a.tiles, len(s), time.monotonic() - start))
    else:
        print("%d tiles, %d reloads of every tile (%.1f s each without keys), %d keys pressed during them (%.0f s):" % (
            a.tiles, len(windows), sorted(windows)[len(windows) // 2], len(s), time.monotonic() - start))
    print("  key to screen: median %.1f ms, p95 %.1f ms, p99 %.1f ms, max %.1f ms (target: p99 under 50 ms)" % (
        pct(0.5), pct(0.95), pct(0.99), s[-1]))
    print("  load average: %s" % open("/proc/loadavg").read().split()[:3])


def command(tmp, cfg, binary, run):
    """The program in the pane, its home, cache and state in folders of run `run` (empty ones)."""
    home = os.path.join(tmp, "home" + run)
    os.makedirs(home, exist_ok=True)
    return "exec env HOME=%s XDG_CONFIG_HOME=%s XDG_CACHE_HOME=%s/cache TERM=tmux-256color LANG=C.UTF-8 %s" % (
        home, os.path.dirname(cfg), home, os.path.abspath(binary))


def write_home(tmp, tiles):
    cfg = os.path.join(tmp, "config", "swiftdash")
    os.makedirs(cfg)
    with open(os.path.join(cfg, "home.yaml"), "w") as f:
        f.write("tiles:\n")
        for i in range(tiles):
            f.write("  - clock\n" if i % 2 == 0 else "  - note\n")
    return cfg


# The seventh session's harness: pipe-pane stamps the output, the keys are `tmux send-keys` runs.
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


def poll_main(a):
    w, h = a.size.split("x")
    tmp = tempfile.mkdtemp(prefix="bulkkeys-")
    cfg = write_home(tmp, a.tiles)
    stamp = os.path.join(tmp, "stamp.py")
    with open(stamp, "w") as f:
        f.write(STAMP)
    log = os.path.join(tmp, "stamps.log")
    open(log, "w").close()
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
        if not wait(lambda s: "Note" in s or ":" in s):
            sys.exit("no home screen: " + screen())
        lat.append(help_key())
        close_help()
        for _ in range(a.rounds):
            if not a.idle:
                subprocess.run(tmux + ["send-keys", "-t", "s", "R"])
            time.sleep(random.uniform(0.0, 0.05))
            lat.append(help_key())
            close_help()
    finally:
        subprocess.run(tmux + ["kill-server"])
    s = sorted(lat)

    def pct(p):
        return s[min(len(s) - 1, int(round(p * (len(s) - 1))))]
    print("%d tiles, %d keys pressed while reloads of every tile finished (%.0f s), polling harness:" % (
        a.tiles, len(s), time.time() - start))
    print("  key to screen: median %.1f ms, p95 %.1f ms, p99 %.1f ms, max %.1f ms (target: p99 under 50 ms)" % (
        pct(0.5), pct(0.95), pct(0.99), s[-1]))


if __name__ == "__main__":
    main()
