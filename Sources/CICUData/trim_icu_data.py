#!/usr/bin/env python3
"""Writes the ICU data swiftdash links instead of the toolchain's whole set (issue 35, decision 62).

    python3 Sources/CICUData/trim_icu_data.py [LIB_FOUNDATIONICU_A] [OUT]

Foundation on Linux links ICU with all of its data compiled in: one 34 MB symbol,
`icudt<VERSION>_dat`, in lib_FoundationICU.a's icu_packaged_data.cpp.o. swiftdash formats dates
in en_US_POSIX and ISO 8601, looks time zones up by IANA name and compares strings; it converts
legacy charsets with glibc's iconv (FeedIconv), not ICU. So this keeps, of ICU's common data:
everything that is not a locale's (time zones, likely subtags, plural rules, normalisation,
the collation root, break rules, converter aliases) and the locales root, en and en_* named in
KEEP_LOCALES, in the trees it keeps (dates and numbers, time zone names, collation, break
rules); it drops the other locales, the trees of names in words (languages, regions,
currencies, units), the legacy converters (.cnv), the transliterators, character names and the
break dictionaries (CJK, Thai, Khmer, Lao, Burmese word breaking). A locale that is missing
falls back to root, as ICU does for any locale it lacks.

The output is ICU's common-data format again (header, table of contents, items, each item
16-byte aligned), named icudt<VERSION>l.dat; icudata.S links it under the symbol ICU looks for,
so the archive's member with the full data is never pulled into the link.
"""
import os
import re
import struct
import subprocess
import sys
import tempfile

KEEP_LOCALES = {"root", "en", "en_US", "en_US_POSIX", "en_001", "en_150", "en_GB"}
# Per-locale trees: of each, the locales above plus the tree's own pool and index.
LOCALE_TREES = {"coll", "zone", "brkitr", "rbnf"}
# Names of languages, regions, currencies and units in words (Locale.localizedString(for…),
# currency and measurement formatters): swiftdash shows none; and the transliterators.
DROPPED_TREES = {"curr", "lang", "region", "unit", "translit"}
DROPPED_SUFFIXES = (".cnv", ".dict")
DROPPED_ITEMS = {"unames.icu"}
# Of the line-break rules, the default ones (line.brk): the others serve the `lb=loose|normal`
# locale keywords and Chinese/Japanese line breaking, which a terminal grid does not ask for.
DROPPED_PREFIXES = ("line_",)
LOCALE_NAME = re.compile(r"^[a-z]{2,3}(_[A-Za-z0-9]+)*$")


def keep(name):
    parts = name.split("/")[1:]  # without the icudt76l/ prefix
    base = parts[-1]
    stem, _, _ = base.rpartition(".")
    if base in DROPPED_ITEMS or base.endswith(DROPPED_SUFFIXES) or base.startswith(DROPPED_PREFIXES):
        return False
    if len(parts) == 2:
        tree = parts[0]
        if tree in DROPPED_TREES:
            return False
        if tree in LOCALE_TREES and base.endswith(".res"):
            return stem in KEEP_LOCALES or stem in ("pool", "res_index")
        return True  # break rules (.brk, .nrm) and the collation root (ucadata.icu)
    if base.endswith(".res") and LOCALE_NAME.match(stem) and stem not in ("pool", "root"):
        return stem in KEEP_LOCALES
    return True


def read_items(data):
    header_size = struct.unpack_from("<H", data, 0)[0]
    toc = header_size
    count = struct.unpack_from("<I", data, toc)[0]
    entries = [struct.unpack_from("<II", data, toc + 4 + 8 * i) for i in range(count)]
    items = []
    for i, (name_offset, data_offset) in enumerate(entries):
        end = data.index(b"\0", toc + name_offset)
        name = data[toc + name_offset : end].decode()
        stop = entries[i + 1][1] if i + 1 < count else len(data) - toc
        items.append((name, data[toc + data_offset : toc + stop]))
    return data[:header_size], items


def write_items(header, items):
    count = len(items)
    names = b"".join(n.encode() + b"\0" for n, _ in items)
    toc_size = 4 + 8 * count
    data_start = (toc_size + len(names) + 15) & ~15
    out_toc = bytearray(struct.pack("<I", count))
    body = bytearray()
    name_offset = toc_size
    for name, item in items:
        out_toc += struct.pack("<II", name_offset, data_start + len(body))
        name_offset += len(name) + 1
        body += item
        body += b"\0" * (-len(body) % 16)
    padding = b"\0" * (data_start - toc_size - len(names))
    return bytes(header) + bytes(out_toc) + names + padding + bytes(body)


def main():
    archive = sys.argv[1] if len(sys.argv) > 1 else find_archive()
    out = sys.argv[2] if len(sys.argv) > 2 else None
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(["ar", "x", os.path.abspath(archive), "icu_packaged_data.cpp.o"], cwd=tmp, check=True)
        member = os.path.join(tmp, "icu_packaged_data.cpp.o")
        symbols = subprocess.run(["nm", member], capture_output=True, text=True, check=True).stdout
        symbol = re.search(r"\b(icudt(\d+)_dat)\b", symbols)
        if not symbol:
            sys.exit("trim_icu_data: no icudt<VERSION>_dat in " + archive)
        raw = os.path.join(tmp, "raw.dat")
        subprocess.run(["objcopy", "-O", "binary", "--only-section=.rodata", member, raw], check=True)
        data = open(raw, "rb").read()
    header, items = read_items(data)
    kept = [(n, d) for n, d in items if keep(n)]
    trimmed = write_items(header, kept)
    # Round trip: the table of contents reads back to exactly the items kept.
    if [n for n, _ in read_items(trimmed)[1]] != [n for n, _ in kept]:
        sys.exit("trim_icu_data: the table of contents does not read back")
    out = out or os.path.join(os.path.dirname(os.path.abspath(__file__)), "include", "swiftdash-icudt%sl.dat" % symbol.group(2))
    with open(out + ".tmp", "wb") as f:
        f.write(trimmed)
    os.replace(out + ".tmp", out)
    print("%s: %d of %d items, %.1f MB of %.1f MB (%s)" % (
        os.path.basename(out), len(kept), len(items), len(trimmed) / 1e6, len(data) / 1e6, symbol.group(1)))


def find_archive():
    swiftc = subprocess.run(["sh", "-c", "command -v swiftc"], capture_output=True, text=True).stdout.strip()
    root = os.path.dirname(os.path.dirname(os.path.realpath(swiftc)))
    return os.path.join(root, "lib", "swift_static", "linux", "lib_FoundationICU.a")


if __name__ == "__main__":
    main()
