#!/usr/bin/env python3
"""Checks the system widget's readings against psutil's (pip install psutil).

Two parts:

1. Live, at the same moment. The script starts the test hook
   `SystemReferenceTests/liveDump` (swift test, skipped unless SWIFTDASH_SYSTEM_DUMP is
   set), which reads this machine through the widget's real provider whenever the
   script asks. Right after each answer the script reads the same values with psutil,
   so both sides measure the same 2-second windows, a few milliseconds apart. Every
   value is compared within the tolerance written next to it; the report goes to
   Tests/reference/psutil_compare.txt (committed). Exit status 1 if any value is out.

2. Captured. The script copies the /proc files the widget reads at two moments into
   Tests/DashBuiltinWidgetsTests/Fixtures/proc-real/{a,b} and lets psutil read those very
   files (psutil.PROCFS_PATH), writing its answers to proc-real/psutil.json. `swift
   test` (SystemReferenceTests/capturedMachineMatchesPsutil) then checks that the widget
   computes the same numbers from the same files, to rounding, on any machine.

CI does not run this script. Run it from the repository:
    python3 Tests/reference/psutil_compare.py [--rounds 5] [--skip-build]
It builds through the project's build lock (/tmp/swiftdash-build.lock).
"""
import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time

import psutil

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
REPORT = os.path.join(REPO, "Tests", "reference", "psutil_compare.txt")
CAPTURE = os.path.join(REPO, "Tests", "DashBuiltinWidgetsTests", "Fixtures", "proc-real")
LOCK = "/tmp/swiftdash-build.lock"
INTERVAL = 2.0
MB = 1 << 20

# Tolerances, and why they are that wide.
TOL = {
    # Both sides difference /proc/stat over windows of 2 s that start a few ms apart.
    "cpu_total_pts": 5.0,
    "cpu_core_pts": 10.0,
    # Memory moves between two reads milliseconds apart (builds run beside us).
    "mem_bytes": 32 * MB,
    "mem_pct_pts": 0.5,
    "swap_bytes": 16 * MB,
    # The kernel updates the load average every 5 s.
    "load": 0.10,
    # psutil's boot time comes from /proc/stat's btime (whole seconds).
    "uptime_s": 1.5,
    # Disks being written by builds.
    "disk_bytes": 64 * MB,
    "disk_pct_pts": 0.5,
    # Network totals and rates over windows a few ms apart.
    "net_total_bytes": 256 * 1024,
    "net_rate_bytes_s": 64 * 1024,
    # One process's CPU over its window, percent of one core; resident memory.
    "proc_cpu_pts": 10.0,
    "proc_rss_bytes": 16 * MB,
}


class Report:
    def __init__(self):
        self.lines = []
        self.failures = 0
        self.checks = 0

    def say(self, text=""):
        print(text)
        self.lines.append(text)

    def check(self, name, swift, ref, tol, unit=""):
        self.checks += 1
        diff = abs(swift - ref)
        ok = diff <= tol
        if not ok:
            self.failures += 1
        self.say("  %-30s swift %14s  psutil %14s  diff %10s  tol %10s  %s" % (
            name, fmt(swift), fmt(ref), fmt(diff), fmt(tol), "ok" if ok else "OUT"))


def fmt(v):
    if isinstance(v, float) and not v.is_integer():
        return "%.2f" % v
    return str(int(v))


def build():
    subprocess.run(["flock", LOCK, "swift", "build", "--build-tests"], cwd=REPO, check=True,
                   stdout=subprocess.DEVNULL)


def live(rounds, report):
    tmp = tempfile.mkdtemp(prefix="swiftdash-psutil-")
    cmd_path, out_path = os.path.join(tmp, "cmd"), os.path.join(tmp, "out")
    os.mkfifo(cmd_path)
    os.mkfifo(out_path)
    env = dict(os.environ, SWIFTDASH_SYSTEM_DUMP=tmp)
    log = open(os.path.join(tmp, "swift-test.log"), "w")
    # Running already built tests takes no build lock.
    child = subprocess.Popen(["swift", "test", "--skip-build", "--filter", "SystemReferenceTests/liveDump"],
                             cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT)
    cmd = open(cmd_path, "w")
    out = open(out_path, "r")
    procs = {}  # pid -> psutil.Process, primed for cpu_percent
    last_net, last_t = None, None
    costs = []

    def sample():
        cmd.write("sample\n")
        cmd.flush()
        return json.loads(out.readline())

    def read_psutil():
        nonlocal procs
        t = time.monotonic()
        r = {
            "cpu": psutil.cpu_percent(None),
            "percpu": psutil.cpu_percent(None, percpu=True),
            "vm": psutil.virtual_memory(),
            "swap": psutil.swap_memory(),
            "load": psutil.getloadavg(),
            "boot": psutil.boot_time(),
            "net": psutil.net_io_counters(pernic=True),
            "t": t,
            "now": time.time(),
        }
        seen, cpu = {}, {}
        for p in psutil.process_iter():
            q = procs.get(p.pid, p)
            try:
                cpu[p.pid] = q.cpu_percent(None)
                seen[p.pid] = q
            except psutil.Error:
                pass
        r["procs"] = seen
        r["proccpu"] = cpu
        procs = seen
        return r

    first = sample()
    costs.append(first["sampleCPUSeconds"])
    prev = read_psutil()
    last_t = time.monotonic()
    for k in range(1, rounds + 1):
        time.sleep(max(0, last_t + INTERVAL - time.monotonic()))
        last_t = time.monotonic()
        s = sample()
        costs.append(s["sampleCPUSeconds"])
        p = read_psutil()
        report.say("round %d (window %.2f s by /proc/uptime, %.2f s by psutil's clock)" % (
            k, s.get("cpuWindow") or 0, p["t"] - prev["t"]))
        report.check("CPU % (all cores)", s["cpu"], p["cpu"], TOL["cpu_total_pts"])
        report.check("CPU count", len(s["cores"]), len(p["percpu"]), 0)
        for i, (a, b) in enumerate(zip(s["cores"], p["percpu"])):
            report.check("CPU %% core %d" % i, a, b, TOL["cpu_core_pts"])
        m = s["memory"]
        used = m["total"] - m["available"]
        report.check("memory total", m["total"], p["vm"].total, 0)
        report.check("memory available", m["available"], p["vm"].available, TOL["mem_bytes"])
        report.check("memory used (total-avail)", used, p["vm"].total - p["vm"].available, TOL["mem_bytes"])
        report.check("memory %", used / m["total"] * 100, p["vm"].percent, TOL["mem_pct_pts"])
        report.check("swap total", m["swapTotal"], p["swap"].total, 0)
        report.check("swap used", m["swapTotal"] - m["swapFree"], p["swap"].used, TOL["swap_bytes"])
        for i, (a, b) in enumerate(zip(s["load"], p["load"])):
            report.check("load average %s" % ["1m", "5m", "15m"][i], a, b, TOL["load"])
        report.check("uptime s", s["uptime"], p["now"] - p["boot"], TOL["uptime_s"])
        for d in s["disks"]:
            u = psutil.disk_usage(d["mountPoint"])
            report.check("disk %s total" % d["mountPoint"], d["space"]["total"], u.total, 0)
            report.check("disk %s used" % d["mountPoint"], d["space"]["used"], u.used, TOL["disk_bytes"])
            du = d["space"]["used"]
            report.check("disk %s %%" % d["mountPoint"], du / (du + d["space"]["available"]) * 100, u.percent,
                         TOL["disk_pct_pts"])
        names = [i["name"] for i in s["interfaces"]]
        rx = sum(p["net"][n].bytes_recv for n in names if n in p["net"])
        tx = sum(p["net"][n].bytes_sent for n in names if n in p["net"])
        report.check("net received total (%s)" % ",".join(names), s["receivedTotal"], rx, TOL["net_total_bytes"])
        report.check("net sent total", s["sentTotal"], tx, TOL["net_total_bytes"])
        prx = sum(prev["net"][n].bytes_recv for n in names if n in prev["net"])
        ptx = sum(prev["net"][n].bytes_sent for n in names if n in prev["net"])
        dt = p["t"] - prev["t"]
        if s.get("received") is not None:
            report.check("net received B/s", s["received"], (rx - prx) / dt, TOL["net_rate_bytes_s"])
            report.check("net sent B/s", s["sent"], (tx - ptx) / dt, TOL["net_rate_bytes_s"])
        for proc in s["processes"][:5]:
            q = p["procs"].get(proc["pid"])
            primed = proc["pid"] in prev["procs"]
            if q is None:
                report.say("  process %d (%s) ended before psutil read it" % (proc["pid"], proc["name"]))
                continue
            try:
                name = q.name()
                rss = q.memory_info().rss
            except psutil.Error:
                continue
            same = name[:15] == proc["name"][:15]
            report.checks += 1
            if not same:
                report.failures += 1
            report.say("  process %-7d name %-18s psutil %-18s %s" % (proc["pid"], proc["name"], name,
                                                                     "ok" if same else "OUT"))
            report.check("  %d resident bytes" % proc["pid"], proc["memory"], rss, TOL["proc_rss_bytes"])
            if primed:
                report.check("  %d CPU %% of one core" % proc["pid"], proc["cpu"], p["proccpu"][proc["pid"]],
                             TOL["proc_cpu_pts"])
        prev = p
    cmd.write("quit\n")
    cmd.flush()
    cmd.close()
    out.close()
    child.wait(timeout=60)
    shutil.rmtree(tmp, ignore_errors=True)
    return costs


# -- captured part --------------------------------------------------------------------

CAPTURED = ["stat", "meminfo", "vmstat", "uptime", "loadavg", "net/dev", "filesystems", "self/mounts"]


def capture(dest, pids):
    shutil.rmtree(dest, ignore_errors=True)
    for rel in CAPTURED:
        src = os.path.join("/proc", rel)
        dst = os.path.join(dest, "proc", rel)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        with open(src, "rb") as f:
            data = f.read()
        with open(dst, "wb") as f:
            f.write(data)
    os.makedirs(os.path.join(dest, "proc", "sys", "kernel"), exist_ok=True)
    with open(os.path.join(dest, "proc", "sys", "kernel", "hostname"), "w") as f:
        f.write("reference\n")
    for pid in pids:
        for name in ["stat", "statm", "cmdline"]:
            try:
                with open("/proc/%d/%s" % (pid, name), "rb") as f:
                    data = f.read()
            except OSError:
                continue
            os.makedirs(os.path.join(dest, "proc", str(pid)), exist_ok=True)
            with open(os.path.join(dest, "proc", str(pid), name), "wb") as f:
                f.write(data)


def captured(report):
    pids = [1, os.getpid()]
    a, b = os.path.join(CAPTURE, "a"), os.path.join(CAPTURE, "b")
    capture(a, pids)
    end = time.monotonic() + 1.0
    while time.monotonic() < end:  # some CPU to measure
        sum(i * i for i in range(1000))
    capture(b, pids)
    # psutil reads the captured files, not the live ones.
    psutil.PROCFS_PATH = os.path.join(a, "proc")
    psutil.cpu_percent(None)
    psutil.cpu_percent(None, percpu=True)
    psutil.PROCFS_PATH = os.path.join(b, "proc")
    vm = psutil.virtual_memory()
    sw = psutil.swap_memory()
    net = psutil.net_io_counters(pernic=True)
    names = sorted(n for n in net if n != "lo" and not n.startswith(("veth", "docker", "br-", "virbr", "ifb")))
    with open(os.path.join(b, "proc", "uptime")) as f:
        uptime = float(f.read().split()[0])
    procs = {}
    for pid in pids:
        try:
            q = psutil.Process(pid)
            t = q.cpu_times()
            procs[str(pid)] = [t.user + t.system, float(q.memory_info().rss)]
        except psutil.Error:
            pass
    expected = {
        "cpuPercent": psutil.cpu_percent(None),
        "perCPU": psutil.cpu_percent(None, percpu=True),
        "memory": {"total": vm.total, "available": vm.available, "percent": vm.percent,
                   "swapTotal": sw.total, "swapUsed": sw.used},
        "interfaces": names,
        "received": sum(net[n].bytes_recv for n in names),
        "sent": sum(net[n].bytes_sent for n in names),
        "uptime": uptime,
        "processes": procs,
    }
    psutil.PROCFS_PATH = "/proc"
    with open(os.path.join(CAPTURE, "psutil.json"), "w") as f:
        json.dump(expected, f, indent=1, sort_keys=True)
        f.write("\n")
    report.say("captured /proc twice into %s; psutil over those files: CPU %.1f%%, memory %.1f%%" % (
        os.path.relpath(CAPTURE, REPO), expected["cpuPercent"], vm.percent))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--skip-build", action="store_true")
    ap.add_argument("--no-capture", action="store_true")
    args = ap.parse_args()
    report = Report()
    report.say("swiftdash system widget against psutil %s — %s, %s, Python %s, %d CPUs" % (
        psutil.__version__, platform.system(), platform.release(), platform.python_version(), psutil.cpu_count()))
    report.say("date: %s; sample interval %.0f s; tolerances:" % (time.strftime("%Y-%m-%d %H:%M:%S"), INTERVAL))
    for k, v in TOL.items():
        report.say("  %-18s %s" % (k, fmt(v)))
    report.say()
    if not args.skip_build:
        build()
    costs = live(args.rounds, report)
    report.say()
    steady = costs[1:] or costs
    avg = sum(steady) / len(steady)
    report.say("cost of one sample (extraLarge: every process read), CPU time of the test process, debug build: "
               "%.1f ms on average (%s ms); at one sample every %.0f s that is %.3f%% of one core" % (
                   avg * 1000, ", ".join("%.1f" % (c * 1000) for c in steady), INTERVAL, avg / INTERVAL * 100))
    if not args.no_capture:
        captured(report)
    report.say()
    report.say("%d checks, %d out of tolerance" % (report.checks, report.failures))
    with open(REPORT, "w") as f:
        f.write("\n".join(report.lines) + "\n")
    sys.exit(1 if report.failures else 0)


if __name__ == "__main__":
    main()
