#!/usr/bin/env python3
"""How often the news widget reads feedparser's own test corpus as feedparser does.

    pip install feedparser==6.0.14        # chardet must NOT be installed (see feedparser_reference.py)
    python3 Tests/reference/feedparser_corpus.py [FEEDPARSER_SOURCE_DIR]

Without a folder it fetches feedparser's source distribution (`pip download feedparser
--no-binary :all:`), whose tests/ hold ~2,200 feeds written to exercise every corner of the
formats. For each file it compares the headlines feedparser gives (reduced as
feedparser_reference.py reduces them: HTML titles to text, escapes and controls removed) of
every entry that has a title with the ones the widget gives (the opt-in Swift test
FeedparserCorpusDump), and prints the share of feedparser's titled entries the widget shows
with the same text, then the files that differ. Untitled entries are left out on both sides'
count (the widget titles them by their summary; most of the corpus's untitled entries test the
HTML sanitizer, not headlines). Numbers go to docs/measuring.md.
"""
import collections
import json
import os
import pathlib
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))
import feedparser_reference as ref  # noqa: E402


def source_dir():
    if len(sys.argv) > 1:
        return pathlib.Path(sys.argv[1])
    tmp = pathlib.Path(tempfile.mkdtemp(prefix="feedparser-src-"))
    subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--no-binary", ":all:",
                    "feedparser==" + ref.feedparser.__version__, "-d", str(tmp)], check=True)
    archive = next(tmp.glob("feedparser-*.tar.gz"))
    subprocess.run(["tar", "xzf", str(archive), "-C", str(tmp)], check=True)
    return next(tmp.glob("feedparser-*/"))


def main():
    tests = source_dir() / "tests"
    files = sorted(p for p in tests.rglob("*.xml"))
    theirs = {}
    for p in files:
        try:
            theirs[str(p.relative_to(tests))] = [e["title"] for e in ref.read(p, "application/xml", summary_titles=False)["entries"]]
        except Exception as e:  # a file feedparser itself cannot take is not counted
            print("feedparser failed on %s: %s" % (p, e), file=sys.stderr)
    out = pathlib.Path(tempfile.mkdtemp()) / "swiftdash.json"
    env = dict(os.environ, SWIFTDASH_FEEDPARSER_CORPUS=str(tests), SWIFTDASH_FEEDPARSER_OUT=str(out))
    subprocess.run(["swift", "test", "--filter", "FeedparserCorpusDump"], cwd=ROOT, env=env, check=True,
                   stdout=subprocess.DEVNULL)
    ours = json.loads(out.read_text(encoding="utf-8"))
    total = matched = 0
    differ = []
    for name, want in sorted(theirs.items()):
        got = ours.get(name, [])
        common = collections.Counter(want) & collections.Counter(got)
        total += len(want)
        matched += sum(common.values())
        if sum(common.values()) < len(want):
            differ.append((name, want, got))
    print("files: %d; feedparser's titled entries: %d; the widget agrees on %d (%.1f%%)"
          % (len(theirs), total, matched, 100.0 * matched / max(1, total)))
    for name, want, got in differ:
        print("  %s\n    feedparser: %s\n    swiftdash:  %s" % (name, want[:3], got[:3]))


if __name__ == "__main__":
    main()
