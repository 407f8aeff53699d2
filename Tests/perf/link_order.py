#!/usr/bin/env python3
"""Regenerates Sources/swiftdash/link-order.txt: every function the home screen runs while it
starts and sits idle, so the release link (Package.swift: lld --symbol-ordering-file) puts them
side by side and the screen faults in a few dozen 64 KB windows of code instead of most of .text.

    swift build -c release --static-swift-stdlib --product swiftdash
    python3 Tests/perf/link_order.py            # needs valgrind and tmux; ~2 minutes
    swift build -c release --static-swift-stdlib --product swiftdash   # relinks with the new order
                                                # (the script removes the old binary: SwiftPM does
                                                # not see the order file as an input of the link)

Each scenario runs the release binary (debug info stripped, valgrind 3.19 cannot read DWARF 5)
under callgrind in a private tmux at 160x48 and keeps the names of the functions it executed:
the default home online (fixtures on 127.0.0.1, warm cache), a clock-only home (cold cache),
the built-in default home offline, and a short walk over the keys. The clock-only home's
functions come first, then the other idle ones, then the keys'.
Functions the compiler names only with a local label (`.L...`) cannot be ordered by name.
"""
import os, re, shutil, subprocess, sys, tempfile, time

repo = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
release = os.path.join(repo, ".build", "release")
out_file = os.path.join(repo, "Sources", "swiftdash", "link-order.txt")


def executed(path, exe):
    """Names of functions in `exe` that callgrind's output file saw run."""
    objects, names, current, found = {}, {}, None, set()
    for line in open(path, errors="replace"):
        line = line.rstrip("\n")
        m = re.match(r"^(c?ob)=\((\d+)\)(?: (.*))?$", line)
        if m:
            kind, i, n = m.groups()
            if n:
                objects[i] = n
            if kind == "ob":
                current = objects[i]
            continue
        m = re.match(r"^(c?)fn=\((\d+)\)(?: (.*))?$", line)
        if m:
            called, i, n = m.groups()
            if n:
                names[i] = n
            if not called and current and current.endswith("/" + exe):
                name = re.sub(r"'\d+$", "", names[i])
                if not name.startswith("0x"):
                    found.add(name)
    return found


def run(name, seconds, env, args, tmp, binary, keys=()):
    out = os.path.join(tmp, name + ".out")
    socket = "linkorder-%d-%s" % (os.getpid(), name)
    envs = " ".join("%s=%s" % kv for kv in env.items())
    cmd = "env %s valgrind --tool=callgrind --demangle=no --callgrind-out-file=%s %s %s 2>%s/%s.err" % (
        envs, out, binary, " ".join(args), tmp, name)
    subprocess.run(["tmux", "-L", socket, "new-session", "-d", "-x", "160", "-y", "48", cmd], check=True)
    return socket, out, seconds, keys


def main():
    for tool in ("valgrind", "tmux"):
        if not shutil.which(tool):
            sys.exit("link_order.py needs %s (apt-get install %s)" % (tool, tool))
    binary = os.path.join(release, "swiftdash")
    if not os.path.exists(binary):
        sys.exit("build the release binary first: swift build -c release --static-swift-stdlib --product swiftdash")
    stripped = binary + "-cg"  # beside the real one: themes and the provider host are found the same way
    subprocess.run(["objcopy", "--strip-debug", binary, stripped], check=True)
    # The provider host is swiftdash started as swiftdash-fetch (decision 62); `make` builds no
    # separate product, so a link stands in for the run (callgrind follows the home screen only).
    host = os.path.join(release, "swiftdash-fetch")
    made_host = not os.path.lexists(host)
    if made_host:
        os.symlink(os.path.basename(stripped), host)
    tmp = tempfile.mkdtemp(prefix="swiftdash-linkorder-")
    online_cfg = os.path.join(tmp, "online")
    server = subprocess.Popen([sys.executable, os.path.join(repo, "Tests", "perf", "fixtures_online.py"), online_cfg, "18089"])
    time.sleep(1)
    clock_cfg = os.path.join(tmp, "clock", "swiftdash")
    os.makedirs(clock_cfg)
    open(os.path.join(clock_cfg, "home.yaml"), "w").write("tiles:\n  - family: small\n    widget: clock\n")
    warm = os.path.join(tmp, "cache-warm")
    try:
        # A first pass fills the warm cache; the scenarios then run side by side.
        first = run("fill", 20, {"XDG_CONFIG_HOME": online_cfg, "XDG_CACHE_HOME": warm}, [], tmp, stripped)
        finish([first])
        jobs = [
            run("online", 75, {"XDG_CONFIG_HOME": online_cfg, "XDG_CACHE_HOME": warm}, [], tmp, stripped),
            run("clock", 65, {"XDG_CONFIG_HOME": os.path.dirname(clock_cfg), "XDG_CACHE_HOME": tmp + "/c2"}, [], tmp,
                stripped),
            run("offline", 45, {"XDG_CONFIG_HOME": tmp + "/none", "XDG_CACHE_HOME": tmp + "/c3"}, ["--default-home"],
                tmp, stripped),
            run("keys", 25, {"XDG_CONFIG_HOME": online_cfg, "XDG_CACHE_HOME": tmp + "/c4"}, [], tmp, stripped,
                keys=["Right", "Right", "Down", "Enter", "Escape", "?", "Escape", "Tab", "Left", "t", "t", "r",
                      "PageDown", "PageUp", "Up"]),
        ]
        finish(jobs)
    finally:
        server.kill()
    exe = os.path.basename(stripped)
    # The clock-only home's functions first (the smallest home: its start faults in the fewest
    # windows, issue 35.4), then the rest of what starts and idles, then the keys'.
    clock = executed(os.path.join(tmp, "clock.out"), exe)
    idle = set()
    for name in ("fill", "online", "offline"):
        idle |= executed(os.path.join(tmp, name + ".out"), exe)
    idle -= clock
    keys = executed(os.path.join(tmp, "keys.out"), exe) - idle - clock
    with open(out_file, "w") as f:
        f.write("".join(name + "\n" for tier in (clock, idle, keys) for name in sorted(tier)))
    os.remove(stripped)
    if made_host:
        os.remove(host)
    os.remove(binary)  # SwiftPM does not know the order file is an input of the link: force a relink
    print("%s: %d clock-only functions, %d more idle, %d more for keys" % (
        os.path.relpath(out_file, repo), len(clock), len(idle), len(keys)))


def finish(jobs):
    start = time.time()
    for socket, out, seconds, keys in sorted(jobs, key=lambda j: j[2]):
        time.sleep(max(0, seconds - (time.time() - start)))
        for k in keys:
            subprocess.run(["tmux", "-L", socket, "send-keys", k])
            time.sleep(1.5)
        subprocess.run(["tmux", "-L", socket, "send-keys", "q"])
    time.sleep(8)
    for socket, out, _, _ in jobs:
        subprocess.run(["tmux", "-L", socket, "kill-server"], stderr=subprocess.DEVNULL)
        if not os.path.exists(out):
            sys.exit("no callgrind output at %s" % out)


if __name__ == "__main__":
    main()
