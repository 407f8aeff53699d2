#!/usr/bin/env python3
"""Expected headlines and links of the feed corpus, as Python's feedparser reads them.

    pip install feedparser          # 6.0.x; chardet must NOT be installed (see below)
    python3 Tests/reference/feedparser_reference.py

Reads every feed in Tests/DashBuiltinWidgetsTests/Fixtures/feeds/ and writes
Tests/reference/feedparser_expected.json, which is committed; `swift test` compares the
news widget's parser with it (NewsFeedCorpusTests) and CI never needs PyPI.

How each feed is handed to feedparser, so that it sees what swiftdash sees:
- the bytes only, as an HTTP answer with `Content-Type: application/xml` and no charset
  (swiftdash's HTTP client does not pass headers to the parser): the encoding comes from
  the byte-order mark or the XML declaration, else UTF-8;
- `Content-Location: https://feeds.example.com/corpus/NAME`, the feed's own address,
  against which relative links resolve.

The charset cases (Fixtures/feeds_charset/, written to the "charset" section) are handed
over with the `Content-Type` each one lists in Fixtures/feeds_charset/content-types.json,
as a server sends it; the news widget passes that header's charset to its decoder, and
NewsCharsetTests compares its headlines with these.

What a tile shows is plain text, so feedparser's values are reduced the way a consumer of
feedparser does it (and as the widget does):
- a title feedparser marks as HTML (`title_detail.type` text/html or application/xhtml+xml)
  has its tags removed (script and style with their content; block-level tags leave a
  space) and its character references decoded (html.parser, HTML5 rules); a plain-text
  title is taken as it is;
- terminal escape sequences, control characters and bidirectional controls are removed
  (as swiftdash's TextSanitizer does), tabs and line breaks become
  spaces, runs of white space become one space, the ends are trimmed;
- an entry whose title is then empty takes its summary's first words instead (the summary
  reduced the same way, cut at a word after at most 80 characters, with "…"), as feed readers
  show a Mastodon post; with no summary either it is not a headline and is left out;
- a link counts only if it is an absolute http(s) address with a host, else it is "".
"""
import html.parser
import importlib.util
import json
import pathlib
import sys
import urllib.parse

import feedparser

ROOT = pathlib.Path(__file__).resolve().parents[2]
CORPUS = ROOT / "Tests/DashBuiltinWidgetsTests/Fixtures/feeds"
CHARSET = ROOT / "Tests/DashBuiltinWidgetsTests/Fixtures/feeds_charset"
OUT = ROOT / "Tests/reference/feedparser_expected.json"
BASE = "https://feeds.example.com/corpus/"

BLOCK_TAGS = {
    "address", "article", "aside", "blockquote", "br", "dd", "div", "dl", "dt", "figcaption", "figure",
    "footer", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "li", "nav", "ol", "p", "pre",
    "section", "table", "tbody", "td", "tfoot", "th", "thead", "tr", "ul",
}
HTML_TYPES = {"text/html", "application/xhtml+xml"}
BIDI = {0x200E, 0x200F} | set(range(0x202A, 0x202F)) | set(range(0x2066, 0x206A))


class _Text(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.out = []
        self.skip = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self.skip += 1
        elif tag in BLOCK_TAGS:
            self.out.append(" ")

    def handle_startendtag(self, tag, attrs):
        if tag in BLOCK_TAGS:
            self.out.append(" ")

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self.skip = max(0, self.skip - 1)
        elif tag in BLOCK_TAGS:
            self.out.append(" ")

    def handle_data(self, data):
        if not self.skip:
            self.out.append(data)


def html_to_text(s):
    p = _Text()
    p.feed(s)
    p.close()
    return "".join(p.out)


def strip_escapes(s):
    """Removes terminal escape sequences as swiftdash's TextSanitizer does: CSI up to its
    final byte, OSC/DCS/APC/PM/SOS up to BEL or ST, other ESC sequences with their next
    character (and intermediates), and the C1 forms of CSI/OSC/DCS/APC/PM/SOS."""
    out, i, n = [], 0, len(s)

    def skip_string(j):
        while j < n:
            c = ord(s[j])
            if c in (0x07, 0x9C):
                return j + 1
            if c == 0x1B:
                return j + 2
            j += 1
        return j

    while i < n:
        c = ord(s[i])
        if c == 0x1B:
            if i + 1 >= n:
                break
            m = ord(s[i + 1])
            if m == 0x5B:
                j = i + 2
                while j < n and not 0x40 <= ord(s[j]) <= 0x7E:
                    j += 1
                i = j + 1
            elif m in (0x5D, 0x50, 0x5F, 0x5E, 0x58):
                i = skip_string(i + 2)
            elif 0x20 <= m <= 0x2F:
                j = i + 2
                while j < n and 0x20 <= ord(s[j]) <= 0x2F:
                    j += 1
                i = j + 1
            else:
                i += 2
            continue
        if c == 0x9B:
            j = i + 1
            while j < n and not 0x40 <= ord(s[j]) <= 0x7E:
                j += 1
            i = j + 1
            continue
        if c in (0x9D, 0x90, 0x9F, 0x9E, 0x98):
            i = skip_string(i + 1)
            continue
        out.append(s[i])
        i += 1
    return "".join(out)


def clean(s):
    out = []
    for ch in strip_escapes(s):
        c = ord(ch)
        if ch in "\t\n\r":
            out.append(" ")
        elif c < 0x20 or 0x7F <= c <= 0x9F or c in BIDI:
            continue
        else:
            out.append(ch)
    return " ".join("".join(out).split())


def text(value, detail):
    value = value or ""
    if (detail or {}).get("type") in HTML_TYPES:
        value = html_to_text(value)
    return clean(value)


def web_link(link):
    link = "".join(ch for ch in (link or "") if not (ord(ch) < 0x20 or 0x7F <= ord(ch) <= 0x9F or ord(ch) in BIDI)).strip()
    try:
        parts = urllib.parse.urlsplit(link)
    except ValueError:
        return ""
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return ""
    return link


def title_from_summary(summary, limit=80):
    out = ""
    for w in summary.split():
        nxt = w if not out else out + " " + w
        if len(nxt) > limit:
            return w[: limit - 1] + "\u2026" if not out else out + "\u2026"
        out = nxt
    return out


def read(path, content_type, summary_titles=True):
    url = BASE + path.name
    d = feedparser.parse(path.read_bytes(), response_headers={"content-location": url, "content-type": content_type})
    entries = []
    for e in d.entries:
        title = text(e.get("title"), e.get("title_detail"))
        if not title and summary_titles:
            title = title_from_summary(text(e.get("summary"), e.get("summary_detail")))
        if not title:
            continue
        entries.append({"title": title, "link": web_link(e.get("link"))})
    return {
        "url": url,
        "version": d.get("version", ""),
        "bozo": type(d.get("bozo_exception")).__name__ if d.get("bozo") else "",
        "encoding": d.get("encoding", ""),
        "title": text(d.feed.get("title"), d.feed.get("title_detail")),
        "entries": entries,
    }


def main():
    if importlib.util.find_spec("chardet") or importlib.util.find_spec("cchardet"):
        sys.exit("uninstall chardet/cchardet: feedparser would guess encodings that swiftdash does not")
    feeds = {}
    for path in sorted(CORPUS.glob("*.xml")):
        feeds[path.name] = read(path, "application/xml")
    content_types = json.loads((CHARSET / "content-types.json").read_text(encoding="utf-8"))
    charset = {}
    for path in sorted(CHARSET.glob("*.xml")):
        charset[path.name] = read(path, content_types[path.name])
        charset[path.name]["contentType"] = content_types[path.name]
    result = {
        "generator": "Tests/reference/feedparser_reference.py",
        "feedparser": feedparser.__version__,
        "python": sys.version.split()[0],
        "feeds": feeds,
        "charset": charset,
    }
    OUT.write_text(json.dumps(result, ensure_ascii=False, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    n = sum(len(f["entries"]) for f in feeds.values())
    print("wrote %s: %d feeds, %d headlines" % (OUT.relative_to(ROOT), len(feeds), n))


if __name__ == "__main__":
    main()
