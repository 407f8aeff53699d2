#!/usr/bin/env python3
"""What `swiftdash run -- CMD` adds to CMD's wall time (issue 39.5).

Usage: Tests/perf/run_overhead.py [SWIFTDASH] [RUNS]   (default: .build/release/swiftdash, 7 runs)

Each workload runs bare and wrapped, alternately (so a busy machine slows both alike), RUNS times,
in a fresh state folder; the median and the fastest of each, and the wrapped run's extra, are
printed as a Markdown table. Workloads:
- start: `true`, which does nothing: the cost of starting swiftdash itself (and an activity);
- cpu: a shell loop of about a second that prints nothing;
- output, pipe: `seq` printing 3 million lines into a pipe the benchmark drains;
- output, tty: the same on a pseudo-terminal (swiftdash puts one of its own in between);
  the last row wraps it in `script -qc` instead of `run`, for the cost of any terminal in between.
"""
import os, pty, statistics, subprocess, sys, tempfile, threading, time

SWIFTDASH = sys.argv[1] if len(sys.argv) > 1 else ".build/release/swiftdash"
RUNS = int(sys.argv[2]) if len(sys.argv) > 2 else 7

WORKLOADS = [
    ("start (true)", ["true"], "pipe", None),
    ("cpu, 1 s loop", ["sh", "-c", "i=0; while [ $i -lt 400000 ]; do i=$((i+1)); done"], "pipe", None),
    ("output, pipe (seq 3M)", ["seq", "3000000"], "pipe", None),
    ("output, tty (seq 3M)", ["seq", "3000000"], "tty", None),
    ("output, tty (seq 3M), script(1)", ["seq", "3000000"], "tty", ["script", "-qec", "seq 3000000", "/dev/null"]),
]


def drain(fd):
    try:
        while os.read(fd, 65536):
            pass
    except OSError:
        pass  # EIO: the terminal's other side closed


def once(argv, mode, env):
    t0 = time.perf_counter()
    if mode == "pipe":
        p = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        out = threading.Thread(target=drain, args=(p.stdout.fileno(),))
        out.start()
        drain(p.stderr.fileno())
        out.join()
        p.wait()
    else:
        master, slave = pty.openpty()
        p = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, env=env, start_new_session=True)
        os.close(slave)
        drain(master)
        p.wait()
        os.close(master)
    return time.perf_counter() - t0, p.returncode


def main():
    state = tempfile.mkdtemp(prefix="run-overhead-")
    env = {"PATH": "/usr/bin:/bin", "HOME": state, "XDG_STATE_HOME": state, "LANG": "C.UTF-8"}
    print(f"{SWIFTDASH}, {RUNS} runs each, {os.cpu_count()} cores\n")
    print("| workload | bare: median (min) | wrapped: median (min) | wrapping adds (median) |")
    print("|---|---|---|---|")
    for name, argv, mode, instead in WORKLOADS:
        bare, wrapped = [], []
        for _ in range(RUNS):
            t, code = once(argv, mode, env)
            bare.append(t)
            t2, code2 = once(instead or [SWIFTDASH, "run", "--", *argv], mode, env)
            wrapped.append(t2)
            if code != code2:
                sys.exit(f"{name}: exit status {code} bare, {code2} through run")
        b, w = statistics.median(bare), statistics.median(wrapped)
        print(f"| {name} | {b * 1000:.1f} ms ({min(bare) * 1000:.1f}) | {w * 1000:.1f} ms ({min(wrapped) * 1000:.1f})"
              f" | {(w - b) * 1000:+.1f} ms ({(w - b) / b * 100:+.1f} %) |")


if __name__ == "__main__":
    main()
