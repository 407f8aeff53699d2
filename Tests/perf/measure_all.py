#!/usr/bin/env python3
"""Regenerates docs/measuring.md: swiftdash's footprint beside the programs it sits beside (issue 35).

    make measure                      # builds, then runs this (about 25 minutes)
    python3 Tests/perf/measure_all.py [--rounds 2] [-d 60] [-w 20] [--frames 5] [--out docs/measuring.md]

Everything in the page comes from one run of this script; each table says the command behind it.
The peer harness is ../shared/perf (measure.sh: one private tmux at 160x48 per run; the tree's CPU,
context switches, peak RSS and PSS over the window; the whole machine's busy % beside it), or
where $SWIFTDASH_PERF_HARNESS points. The peers are Debian's htop, btop and conky-cli.

What is measured, from the release binary stripped as the package ships it and installed beside
its swiftdash-fetch link in a scratch folder (so the provider host is the package's):
1. on disk: the stripped binary, the .deb's Installed-Size when .build/deb has one, the peers';
2. idle, in rounds (round 2 in the reverse order, so drift is shared): the default home (a fresh
   $HOME; no network here, so its network tiles show their offline state), a clock-only home,
   `htop -d 20`, `btop`, conky's 60 s clock; a window of D s after W s of warm-up each;
3. the first frame, interleaved, N times each: swiftdash's default home with an empty cache (a
   fresh $HOME each), the same with the cache a first start left (warm), and btop;
4. `swiftdash bench --tiles 10,100,1000,10000`: growth exponents (issue 25: <= 1.1).
The machine is shared: read the ratios of one round, and the busy % each row carries.
"""
import argparse
import datetime
import glob
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def sh(*args, **kw):
    return subprocess.run(args, capture_output=True, text=True, **kw)


def harness_path(given):
    path = given or os.environ.get("SWIFTDASH_PERF_HARNESS") or os.path.join(REPO, "..", "shared", "perf")
    path = os.path.abspath(path)
    if not os.path.exists(os.path.join(path, "measure.sh")):
        sys.exit(f"measure_all: no measure.sh in {path} (--harness DIR or SWIFTDASH_PERF_HARNESS)")
    return path


def stage(binary, tmp):
    """The binary stripped as `make deb` strips it, with its swiftdash-fetch link beside it."""
    bindir = os.path.join(tmp, "bin")
    os.makedirs(bindir)
    target = os.path.join(bindir, "swiftdash")
    subprocess.run(["strip", "--strip-unneeded", "--remove-section=.comment", "--remove-section=.note",
                    "-o", target, binary], check=True)
    os.symlink("swiftdash", os.path.join(bindir, "swiftdash-fetch"))
    return target


class Suite:
    def __init__(self, harness, out_dir, size):
        self.harness, self.out_dir, self.size = harness, out_dir, size
        self.results = {}  # label -> [result dicts]

    def run(self, label, cmd, duration, warmup, env=(), extra=()):
        args = [os.path.join(self.harness, "measure.sh"), "-d", str(duration), "-w", str(warmup), "-s",
                self.size, "--label", label, "--out-dir", self.out_dir, "--json"]
        for e in env:
            args += ["--env", e]
        args += list(extra) + ["--"] + cmd
        p = sh(*args)
        try:
            start = p.stdout.index("{")
            result = json.loads(p.stdout[start:])
        except ValueError:
            sys.exit(f"measure_all: {label}: no result from measure.sh:\n{p.stdout[-2000:]}\n{p.stderr[-2000:]}")
        if result.get("error"):
            print(f"  {label}: harness error {result['error']}", file=sys.stderr)
        self.results.setdefault(label, []).append(result)
        print(f"  {label}: first frame {result.get('startup_first_frame_ms')} ms, CPU "
              f"{result.get('cpu_pct_one_core')} %, ctx/min {result.get('ctxsw_per_min')}, peak RSS "
              f"{result.get('peak_rss_mb')} MB, tree PSS {result.get('tree_pss_mb_final')} MB, machine busy "
              f"{result.get('system_busy_pct_all_cores')} %", file=sys.stderr)
        return result


def clock_home(tmp):
    config = os.path.join(tmp, "clock-config")
    os.makedirs(os.path.join(config, "swiftdash"))
    with open(os.path.join(config, "swiftdash", "home.yaml"), "w") as f:
        f.write("tiles:\n  - family: small\n    widget: clock\n")
    return config


def fmt(v, nd=2):
    if v is None:
        return "–"
    return f"{v:,.{nd}f}"


def per_minute(result, key):
    v, window = result.get(key), result.get("window_s")
    return v * 60 / window if v is not None and window else None


def ratio(a, b):
    return f"{a / b:.2f}×" if a is not None and b not in (None, 0) else "–"


def disk_section(binary, staged):
    rows = [f"| swiftdash (one program; swiftdash-fetch is a link to it) | {os.path.getsize(staged) / 1e6:.1f} MB |"]
    debs = sorted(glob.glob(os.path.join(REPO, ".build", "deb", "*.deb")), key=os.path.getmtime)
    deb_line = ""
    if debs:
        size = sh("dpkg-deb", "-f", debs[-1], "Installed-Size").stdout.strip()
        if size:
            deb_line = (f"The package `{os.path.relpath(debs[-1], REPO)}` (built by `make deb` from "
                        f"{mtime_utc(debs[-1])}): **Installed-Size {int(size):,} kB** (target ≤ 30,000).")
    for peer in ("htop", "btop", "conky"):
        path = shutil.which(peer)
        if path:
            rows.append(f"| {peer} ({path}) | {os.path.getsize(os.path.realpath(path)) / 1e6:.1f} MB |")
    sections = sh("size", "-A", staged).stdout.splitlines()
    big = [l.split() for l in sections if len(l.split()) == 3 and l.split()[1].isdigit() and int(l.split()[1]) > 200_000]
    parts = ", ".join(f"{name} {int(sz) / 1e6:.1f} MB" for name, sz, _ in big)
    return "\n".join([
        "## On disk",
        "",
        f"`strip --strip-unneeded` of `{os.path.relpath(binary, REPO)}` (as `make deb` strips it) and the peers' "
        "installed binaries (`stat`):",
        "",
        "| program | size |",
        "|---|---|",
        *rows,
        "",
        f"Its largest sections (`size -A`): {parts}. " + deb_line,
        "",
    ])


def mtime_utc(path):
    return datetime.datetime.fromtimestamp(os.path.getmtime(path), datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")


IDLE = [
    ("sd-default", "swiftdash, default home (fresh $HOME, offline)"),
    ("sd-clock", "swiftdash, clock-only home"),
    ("htop", "`htop -d 20` (2 s)"),
    ("btop", "`btop` (2 s, its default)"),
    ("conky-clock-60s", "conky, 60 s clock"),
]


def idle_section(suite, rounds, duration, warmup, harness):
    lines = [
        "## Idle: CPU, context switches, memory",
        "",
        f"`{rounds}` rounds of `measure.sh -d {duration} -w {warmup} -s {suite.size}` per program, round 2 in the "
        "reverse order. CPU is the whole tree's (reaped children included), context switches every thread's, "
        "peak RSS the main process's VmHWM, PSS the tree's at the end of the window. Each cell is "
        "round 1 / round 2; the machine's busy % (all cores, the window) is beside each run.",
        "",
        "| program | CPU % of one core | context switches/min | of which voluntary | peak RSS (MB) | tree PSS (MB) "
        "| machine busy % |",
        "|---|---|---|---|---|---|---|",
    ]
    for label, name in IDLE:
        rs = suite.results.get(label, [])
        cell = lambda key, nd=2: " / ".join(fmt(r.get(key), nd) for r in rs)
        voluntary = " / ".join(fmt(per_minute(r, "ctxsw_voluntary"), 0) for r in rs)
        lines.append(f"| {name} | {cell('cpu_pct_one_core', 3)} | {cell('ctxsw_per_min', 0)} | {voluntary} "
                     f"| {cell('peak_rss_mb', 1)} | {cell('tree_pss_mb_final', 1)} | {cell('system_busy_pct_all_cores', 0)} |")
    lines += ["", "Voluntary switches are the program's own waits (its wake-ups); the rest are involuntary, "
              "the scheduler taking the core away, which grows with how busy the machine is.", "",
              "Ratios within each round (targets: CPU and context switches ≤ 1.0 × htop; clock-only peak RSS "
              "≤ 12 MB; default home tree PSS ≤ 20 MB):", "",
              "| round | default CPU ÷ htop | default ctx ÷ htop | default CPU ÷ btop | clock peak RSS ÷ conky | default PSS ÷ htop |",
              "|---|---|---|---|---|---|"]
    for i in range(rounds):
        get = lambda label, key: (suite.results.get(label) or [{}] * rounds)[i].get(key) if len(suite.results.get(label, [])) > i else None
        lines.append(
            f"| {i + 1} | {ratio(get('sd-default', 'cpu_pct_one_core'), get('htop', 'cpu_pct_one_core'))} "
            f"| {ratio(get('sd-default', 'ctxsw_per_min'), get('htop', 'ctxsw_per_min'))} "
            f"| {ratio(get('sd-default', 'cpu_pct_one_core'), get('btop', 'cpu_pct_one_core'))} "
            f"| {ratio(get('sd-clock', 'peak_rss_mb'), get('conky-clock-60s', 'peak_rss_mb'))} "
            f"| {ratio(get('sd-default', 'tree_pss_mb_final'), get('htop', 'tree_pss_mb_final'))} |")
    lines.append("")
    return "\n".join(lines)


def frame_section(suite, frames, warmup):
    lines = [
        "## First frame: cold and warm",
        "",
        f"`measure.sh -d 1 -w {warmup}`, {frames} runs each, interleaved (cold, warm, btop; …): the time from the "
        "program's release to the first non-empty screen tmux shows (and to the full frame: as many rows as "
        "at the window's start). Cold: a fresh $HOME (no cache). Warm: the $HOME a first start left, "
        "its cache written.",
        "",
        "| program | first frame, median (min–max) ms | full frame, median ms | machine busy %, median |",
        "|---|---|---|---|",
    ]
    medians = {}
    for label, name in (("sd-cold", "swiftdash, default home, cold"), ("sd-warm", "swiftdash, default home, warm"),
                        ("btop-frame", "btop")):
        rs = suite.results.get(label, [])
        first = [r["startup_first_frame_ms"] for r in rs if r.get("startup_first_frame_ms") is not None]
        full = [r["startup_full_frame_ms"] for r in rs if r.get("startup_full_frame_ms") is not None]
        busy = [r["system_busy_pct_all_cores"] for r in rs if r.get("system_busy_pct_all_cores") is not None]
        if not first:
            lines.append(f"| {name} | – | – | – |")
            continue
        medians[label] = statistics.median(first)
        lines.append(f"| {name} | {statistics.median(first):.1f} ({min(first):.1f}–{max(first):.1f}) | "
                     f"{fmt(statistics.median(full) if full else None, 1)} | {fmt(statistics.median(busy) if busy else None, 0)} |")
    lines += ["", f"Ratios of the medians: cold ÷ btop {ratio(medians.get('sd-cold'), medians.get('btop-frame'))}, "
              f"warm ÷ btop {ratio(medians.get('sd-warm'), medians.get('btop-frame'))}, "
              f"warm ÷ cold {ratio(medians.get('sd-warm'), medians.get('sd-cold'))} (targets ≤ 1.0).", ""]
    return "\n".join(lines)


def bench_section(staged):
    tiles = "10,100,1000,10000"
    home = tempfile.mkdtemp(prefix="sd-bench-")
    p = sh(staged, "bench", "--tiles", tiles, env={"HOME": home, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"})
    shutil.rmtree(home, ignore_errors=True)
    out = (p.stdout + p.stderr).strip()
    return "\n".join([
        "## Growth with the number of tiles",
        "",
        f"`swiftdash bench --tiles {tiles}` (issue 25: growth exponents ≤ 1.1 up to 10,000 tiles):",
        "",
        "```",
        out,
        "```",
        "",
    ])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", default=os.path.join(REPO, ".build", "release", "swiftdash"))
    ap.add_argument("--harness", default=None)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("-d", "--duration", type=float, default=60)
    ap.add_argument("-w", "--warmup", type=float, default=20)
    ap.add_argument("--frames", type=int, default=5)
    ap.add_argument("-s", "--size", default="160x48")
    ap.add_argument("--out", default=os.path.join(REPO, "docs", "measuring.md"))
    ap.add_argument("--keep", action="store_true", help="keep the harness's run folders")
    ap.add_argument("--render", metavar="DIR", help="write the page from a kept run's folder (DIR/runs), measuring nothing")
    a = ap.parse_args()
    if not os.path.exists(a.bin):
        sys.exit(f"measure_all: no {a.bin}: build it first (make)")
    harness = harness_path(a.harness)
    missing = [p for p in ("htop", "btop", "conky", "tmux") if not shutil.which(p)]
    if missing:
        sys.exit(f"measure_all: needs {', '.join(missing)} (apt-get install htop btop conky-cli tmux)")
    tmp = tempfile.mkdtemp(prefix="sd-measure-")
    started = datetime.datetime.now(datetime.timezone.utc)
    staged = stage(a.bin, tmp)
    suite = Suite(harness, os.path.join(tmp, "runs"), a.size)
    if a.render:
        rendered(suite, a, harness, staged, tmp)
        return
    clock = clock_home(tmp)
    commands = {
        "sd-default": ([staged], []),
        "sd-clock": ([staged], [f"XDG_CONFIG_HOME={clock}"]),
        "htop": (["htop", "-d", "20"], []),
        "btop": (["btop"], []),
        "conky-clock-60s": (["conky", "-c", os.path.join(harness, "configs", "conky-clock-60s.conf")], []),
    }
    for r in range(a.rounds):
        order = IDLE if r % 2 == 0 else list(reversed(IDLE))
        print(f"round {r + 1}", file=sys.stderr)
        for label, _ in order:
            cmd, env = commands[label]
            suite.run(label, cmd, a.duration, a.warmup, env)
    print("first frames", file=sys.stderr)
    warm_home = os.path.join(tmp, "warm-home")
    os.makedirs(warm_home)
    # The first start writes the cache the warm runs read (its own figures are not counted).
    suite.run("sd-prime", [staged], 3, 5, [f"HOME={warm_home}"])
    for _ in range(a.frames):
        suite.run("sd-cold", [staged], 1, 1)
        suite.run("sd-warm", [staged], 1, 1, [f"HOME={warm_home}"])
        suite.run("btop-frame", ["btop"], 1, 1)
    bench = bench_section(staged)
    with open(os.path.join(tmp, "bench.txt"), "w") as f:
        f.write(bench)
    write_page(suite, a, harness, staged, started, bench)
    if not a.keep:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"wrote {a.out}", file=sys.stderr)


def rendered(suite, a, harness, staged, tmp):
    """The page from a kept run (--keep): its results by label, in the order they were measured."""
    files = sorted(glob.glob(os.path.join(a.render, "runs", "*", "result.json")), key=os.path.getmtime)
    for f in files:
        result = json.load(open(f))
        suite.results.setdefault(result["label"], []).append(result)
    started = min(datetime.datetime.strptime(r["started_at"], "%Y-%m-%dT%H:%M:%S%z")
                  for rs in suite.results.values() for r in rs)
    bench_file = os.path.join(a.render, "bench.txt")
    bench = open(bench_file).read() if os.path.exists(bench_file) else bench_section(staged)
    write_page(suite, a, harness, staged, started, bench, ended=datetime.datetime.fromtimestamp(
        os.path.getmtime(files[-1]), datetime.timezone.utc))
    shutil.rmtree(tmp, ignore_errors=True)
    print(f"wrote {a.out} from {a.render}", file=sys.stderr)


def write_page(suite, a, harness, staged, started, bench, ended=None):
    ended = ended or datetime.datetime.now(datetime.timezone.utc)
    version = sh(staged, "--version").stdout.strip()
    page = "\n".join([
        "# Measuring swiftdash's footprint",
        "",
        "Written by `make measure` (`python3 Tests/perf/measure_all.py`); do not edit by hand, run it again. "
        "Figures from earlier sessions are in this file's history (`git log -p docs/measuring.md`).",
        "",
        f"This run: {started.strftime('%Y-%m-%d %H:%M')}–{ended.strftime('%H:%M')} UTC, "
        f"`{version}`, release build (`make`: static Swift runtime, lld, "
        f"Package.swift's release link), {platform.machine()}, {os.cpu_count()} cores, "
        f"harness `{os.path.relpath(harness, REPO)}/measure.sh`, {sh('tmux', '-V').stdout.strip()}. "
        "The machine is shared with other builds: compare within a round, and read the busy % beside "
        "each figure.",
        "",
        disk_section(a.bin, staged),
        idle_section(suite, a.rounds, a.duration, a.warmup, harness),
        frame_section(suite, a.frames, 1),
        bench,
        "## Other measurements",
        "",
        "- How late a minute change reaches the terminal: `python3 Tests/perf/ontime.py .build/release/swiftdash "
        "--boundaries 25` (a minute per boundary).",
        "- Keys while many loads finish: `python3 Tests/perf/bulk_keys.py .build/release/swiftdash --tiles 1000`.",
        "- An extension's start and idle memory: `python3 Tests/perf/idle_cost.py BIN_DIR HELLO_BIN`.",
        "- The release link's function order: `python3 Tests/perf/link_order.py` (valgrind; then relink).",
        "",
    ])
    with open(a.out + ".tmp", "w") as f:
        f.write(page)
    os.replace(a.out + ".tmp", a.out)


if __name__ == "__main__":
    main()
