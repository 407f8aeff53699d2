#!/usr/bin/env python3
"""Draws docs/home-screen.svg, the README's picture of the home screen, from `swiftdash render`.

    python3 docs/home-screen.py [SWIFTDASH]     (default: .build/release/swiftdash, else .build/debug)

Reproducible: the built-in home screen at a fixed size and instant, in a fresh HOME and UTC, with
sample data for the network widgets; run it again whenever the screens change and commit the
result. Only the Python standard library is used: the ANSI text `render --ansi` prints (SGR
colours and attributes, one terminal row per line) becomes one SVG <text> per run of a style,
placed on a grid of cells (wide characters take two).
"""

import html
import os
import re
import subprocess
import sys
import tempfile
import unicodedata

SIZE = (100, 30)
AT = "2026-11-23T09:30:00Z"
CELL_W, CELL_H, FONT = 9.6, 19, 16
DEFAULT_FG, DEFAULT_BG = "#d8dee9", "#16181d"
ANSI = [
    "#1d1f21", "#cc6666", "#b5bd68", "#f0c674", "#81a2be", "#b294bb", "#8abeb7", "#c5c8c6",
    "#666666", "#d54e53", "#b9ca4a", "#e7c547", "#7aa6da", "#c397d8", "#70c0b1", "#eaeaea",
]


def xterm256(n):
    if n < 16:
        return ANSI[n]
    if n < 232:
        n -= 16
        levels = [0, 95, 135, 175, 215, 255]
        return "#%02x%02x%02x" % (levels[n // 36], levels[n // 6 % 6], levels[n % 6])
    v = 8 + (n - 232) * 10
    return "#%02x%02x%02x" % (v, v, v)


def width(ch):
    if unicodedata.combining(ch) or ch in "\u200d\ufe0f":
        return 0
    return 2 if unicodedata.east_asian_width(ch) in "WF" else 1


def own_cell(ch):
    """A symbol a monospace font may lack (a fallback font draws it at another width)."""
    return ord(ch) >= 0x2190 and not 0x2500 <= ord(ch) <= 0x259F


def parse_sgr(params, style):
    p = [int(x) if x else 0 for x in params.split(";")]
    i = 0
    while i < len(p):
        n = p[i]
        if n == 0:
            style = {}
        elif n in (1, 2, 3, 4, 7):
            style[n] = True
        elif 30 <= n <= 37 or 90 <= n <= 97:
            style["fg"] = ANSI[n - 30 if n < 90 else n - 82]
        elif 40 <= n <= 47 or 100 <= n <= 107:
            style["bg"] = ANSI[n - 40 if n < 100 else n - 92]
        elif n in (38, 48) and i + 2 < len(p) and p[i + 1] == 5:
            style["fg" if n == 38 else "bg"] = xterm256(p[i + 2])
            i += 2
        elif n in (38, 48) and i + 4 < len(p) and p[i + 1] == 2:
            style["fg" if n == 38 else "bg"] = "#%02x%02x%02x" % tuple(p[i + 2:i + 5])
            i += 4
        i += 1
    return style


def rows(text):
    """Each line as a list of (column, text, style) runs."""
    out = []
    for line in text.split("\n")[: SIZE[1]]:
        runs, style, col = [], {}, 0
        for m in re.finditer(r"\x1b\[([0-9;]*)m|([^\x1b]+)", line):
            if m.group(1) is not None:
                style = parse_sgr(m.group(1), dict(style))
                continue
            run, start = "", col
            for ch in m.group(2):
                w = width(ch)
                if w == 2 or own_cell(ch):  # on its own, so the grid stays exact whatever the font
                    if run:
                        runs.append((start, run, style))
                    runs.append((col, ch, style))
                    run, start = "", col + w
                else:
                    run += ch
                col += w
            if run:
                runs.append((start, run, style))
        out.append(runs)
    return out


def svg(text):
    w, h = SIZE[0] * CELL_W, SIZE[1] * CELL_H
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0f}" height="{h:.0f}" '
        f'viewBox="0 0 {w:.0f} {h:.0f}" font-family="DejaVu Sans Mono, Menlo, Consolas, monospace" '
        f'font-size="{FONT}">',
        f'<rect width="100%" height="100%" fill="{DEFAULT_BG}"/>',
    ]
    backgrounds = []  # drawn first, so no cell's background covers a neighbour's glyph
    for y, runs in enumerate(rows(text)):
        for col, run, style in runs:
            fg, bg = style.get("fg", DEFAULT_FG), style.get("bg")
            if style.get(7):
                fg, bg = bg or DEFAULT_BG, fg
            cols = sum(width(c) for c in run)
            if bg:
                backgrounds.append(
                    f'<rect x="{col * CELL_W:.1f}" y="{y * CELL_H}" width="{cols * CELL_W:.1f}" '
                    f'height="{CELL_H}" fill="{bg}"/>')
            if not run.strip():
                continue
            attrs = f'fill="{fg}"'
            if style.get(1):
                attrs += ' font-weight="bold"'
            if style.get(2):
                attrs += ' fill-opacity="0.6"'
            if style.get(3):
                attrs += ' font-style="italic"'
            if style.get(4):
                attrs += ' text-decoration="underline"'
            length = f' textLength="{cols * CELL_W:.1f}" lengthAdjust="spacingAndGlyphs"' if cols > 1 else ""
            parts.append(
                f'<text x="{col * CELL_W:.1f}" y="{y * CELL_H + CELL_H * 0.75:.1f}" {attrs}{length} '
                f'xml:space="preserve">{html.escape(run)}</text>')
    parts[2:2] = backgrounds
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(here)
    exe = sys.argv[1] if len(sys.argv) > 1 else next(
        (p for p in (os.path.join(root, ".build", c, "swiftdash") for c in ("release", "debug")) if os.path.exists(p)),
        None)
    if not exe:
        sys.exit("no swiftdash binary: build one, or name it")
    with tempfile.TemporaryDirectory() as home:
        env = {"HOME": home, "TZ": "UTC", "LANG": "C.UTF-8", "COLORTERM": "truecolor", "TERM": "xterm-256color",
               "PATH": "/usr/bin:/bin"}
        text = subprocess.run(
            [exe, "render", "--ansi", "--default-home", "--size", "%dx%d" % SIZE, "--at", AT],
            env=env, check=True, capture_output=True, text=True).stdout
    with open(os.path.join(here, "home-screen.svg"), "w", encoding="utf-8") as f:
        f.write(svg(text))
    print("wrote docs/home-screen.svg")


if __name__ == "__main__":
    main()
