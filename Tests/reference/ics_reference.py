#!/usr/bin/env python3
"""Writes the expected occurrences of the calendar corpus, for CalendarReferenceTests.

    pip install icalendar recurring-ical-events
    python3 Tests/reference/ics_reference.py

It first (re)writes generated-rules.ics, a fixed-seed corpus of random recurrence
rules. Then for every Tests/DashBuiltinWidgetsTests/Fixtures/ics/NAME.ics it expands the events
that overlap a fixed window with icalendar + recurring-ical-events, drops cancelled
ones (STATUS:CANCELLED, as the widget does) and writes NAME.expected.json beside it:
each occurrence's start and end (UTC for times, YYYY-MM-DD for all-day dates) and
summary, sorted (an instance starting in a spring-forward gap keeps the series' duration,
as RFC 5545 says and the reference does not). Floating times and all-day dates are read
in VIEWER_ZONE, the zone the Swift test gives the expander. CI does not run this script; the Swift test
compares with the committed JSON.
"""

import datetime
import json
import pathlib
import random
import sys
import zoneinfo

import icalendar
import recurring_ical_events
from importlib.metadata import version

VIEWER_ZONE = "Europe/Berlin"
WINDOW = ("2026-01-01T00:00:00", "2027-01-01T00:00:00")  # in VIEWER_ZONE

HERE = pathlib.Path(__file__).resolve().parent
CORPUS = HERE.parent / "DashBuiltinWidgetsTests" / "Fixtures" / "ics"


def utc_text(value, viewer):
    """A date as YYYY-MM-DD; a date-time as UTC ISO 8601 (floating ones read in the viewer's zone)."""
    if not isinstance(value, datetime.datetime):
        return value.isoformat()
    if value.tzinfo is None:
        value = value.replace(tzinfo=viewer)
    return value.astimezone(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def in_gap(value):
    """Whether an aware date-time's wall time does not exist in its zone (a spring-forward gap)."""
    if not isinstance(value, datetime.datetime) or value.tzinfo is None:
        return False
    back = value.astimezone(datetime.timezone.utc).astimezone(value.tzinfo)
    return back.replace(tzinfo=None) != value.replace(tzinfo=None)


def expand(path, viewer):
    calendar = icalendar.Calendar.from_ical(path.read_bytes())
    start = datetime.datetime.fromisoformat(WINDOW[0]).replace(tzinfo=viewer)
    end = datetime.datetime.fromisoformat(WINDOW[1]).replace(tzinfo=viewer)
    events = recurring_ical_events.of(calendar, skip_bad_series=True).between(start, end)
    out = []
    for event in events:
        if str(event.get("STATUS", "")).upper() == "CANCELLED":
            continue
        dtstart = event["DTSTART"].dt
        dtend = event["DTEND"].dt if "DTEND" in event else dtstart
        # RFC 5545 §3.8.5.3: an instance that starts in a spring-forward gap keeps the series'
        # duration; the reference ends it at the wall time instead (at or before its start).
        if in_gap(dtstart) and isinstance(dtend, datetime.datetime) and dtend.tzinfo is dtstart.tzinfo:
            nominal = dtend.replace(tzinfo=None) - dtstart.replace(tzinfo=None)
            dtend = dtstart.astimezone(datetime.timezone.utc) + nominal
        out.append({
            "start": utc_text(dtstart, viewer),
            "end": utc_text(dtend, viewer),
            "allDay": not isinstance(dtstart, datetime.datetime),
            "summary": " ".join(str(event.get("SUMMARY", "")).split()),
        })
    out.sort(key=lambda o: (o["start"], o["end"], o["summary"]))
    return out


def generate_rules(path, seed=5545, count=120):
    """A deterministic corpus of random recurrence rules: every FREQ, INTERVAL, COUNT or
    UNTIL (UTC, local, date), BYDAY with ordinals, BYMONTHDAY, BYMONTH, BYYEARDAY,
    BYSETPOS, BYHOUR, WKST, in several zones, all-day and floating; some with an EXDATE,
    an RDATE, or a RECURRENCE-ID override (moved, or cancelled)."""
    rnd = random.Random(seed)
    zones = ["Europe/Berlin", "America/New_York", "Asia/Kolkata", "Australia/Sydney", "UTC", None]
    days = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//swiftdash//generated rules//EN",
             "X-WR-CALNAME:Generated rules"]
    for i in range(count):
        freq = rnd.choice(["DAILY", "WEEKLY", "MONTHLY", "YEARLY"])
        all_day = rnd.random() < 0.15
        zone = None if all_day else rnd.choice(zones)
        start = datetime.datetime(rnd.choice([2024, 2025, 2026]), rnd.randint(1, 12), rnd.randint(1, 28),
                                  rnd.randint(0, 23), rnd.choice([0, 15, 30, 45]))
        parts = [f"FREQ={freq}"]
        if rnd.random() < 0.4:
            parts.append(f"INTERVAL={rnd.randint(2, 4)}")
        if rnd.random() < 0.5:
            ordinal = freq in ("MONTHLY", "YEARLY") and rnd.random() < 0.5
            picked = rnd.sample(days, rnd.randint(1, 3))
            parts.append("BYDAY=" + ",".join((f"{rnd.choice([1, 2, 3, -1, -2])}" if ordinal else "") + d for d in picked))
        if rnd.random() < 0.3:
            parts.append("BYMONTHDAY=" + ",".join(str(rnd.choice([1, 2, 10, 15, 28, 29, 30, 31, -1, -2]))
                                                  for _ in range(rnd.randint(1, 2))))
        if freq in ("YEARLY", "MONTHLY", "DAILY") and rnd.random() < 0.3:
            parts.append("BYMONTH=" + ",".join(str(m) for m in sorted(rnd.sample(range(1, 13), rnd.randint(1, 3)))))
        if freq == "YEARLY" and rnd.random() < 0.1:
            parts.append("BYYEARDAY=" + str(rnd.choice([1, 100, 200, -1, -100])))
        if rnd.random() < 0.2 and any(p.startswith(("BYDAY", "BYMONTHDAY")) for p in parts):
            parts.append("BYSETPOS=" + str(rnd.choice([1, 2, -1, -2])))
        if not all_day and freq in ("DAILY", "WEEKLY") and rnd.random() < 0.15:
            parts.append("BYHOUR=" + ",".join(str(h) for h in sorted(rnd.sample(range(6, 20), 2))))
        if freq == "WEEKLY" and rnd.random() < 0.4:
            parts.append("WKST=" + rnd.choice(["SU", "MO", "WE"]))
        end = rnd.random()
        if end < 0.35:
            parts.append(f"COUNT={rnd.randint(1, 40)}")
        elif end < 0.7:
            until = start + datetime.timedelta(days=rnd.randint(10, 800))
            kind = "date" if all_day else rnd.choice(["utc", "utc", "local", "date"])
            parts.append("UNTIL=" + (until.strftime("%Y%m%d") if kind == "date" else
                                     until.strftime("%Y%m%dT%H%M%S") + ("Z" if kind == "utc" and zone else "")))
        rnd.shuffle(parts)
        lines += ["BEGIN:VEVENT", f"UID:generated-{i}", f"SUMMARY:Rule {i}"]
        if all_day:
            lines.append("DTSTART;VALUE=DATE:" + start.strftime("%Y%m%d"))
            lines.append("DTEND;VALUE=DATE:" + (start + datetime.timedelta(days=rnd.randint(1, 2))).strftime("%Y%m%d"))
        else:
            tz = "" if zone is None else (f";TZID={zone}" if zone != "UTC" else "")
            z = "Z" if zone == "UTC" else ""
            lines.append(f"DTSTART{tz}:" + start.strftime("%Y%m%dT%H%M%S") + z)
            lines.append(f"DURATION:PT{rnd.choice([15, 30, 60, 90, 480])}M")
        lines.append("RRULE:" + ";".join(parts))

        def stamp(moment):
            if all_day:
                return ";VALUE=DATE:" + moment.strftime("%Y%m%d")
            tz = "" if zone in (None, "UTC") else f";TZID={zone}"
            return f"{tz}:" + moment.strftime("%Y%m%dT%H%M%S") + ("Z" if zone == "UTC" else "")

        shifted = [start + datetime.timedelta(days=rnd.choice([0, 1, 7, 14, 30, 365, 400, 730])) for _ in range(3)]
        if rnd.random() < 0.3:
            lines.append("EXDATE" + stamp(shifted[0]))
        if rnd.random() < 0.2:
            lines.append("RDATE" + stamp(shifted[1] + datetime.timedelta(hours=0 if all_day else 3)))
        lines.append("END:VEVENT")
        if rnd.random() < 0.2:
            moved = shifted[2] + datetime.timedelta(days=rnd.choice([0, 1]), hours=0 if all_day else rnd.choice([1, -2]))
            lines += ["BEGIN:VEVENT", f"UID:generated-{i}", f"SUMMARY:Rule {i} (override)",
                      "RECURRENCE-ID" + stamp(shifted[2]), "DTSTART" + stamp(moved),
                      "DTEND" + stamp(moved + datetime.timedelta(days=1 if all_day else 0, minutes=0 if all_day else 45))]
            if rnd.random() < 0.3:
                lines.append("STATUS:CANCELLED")
            lines.append("END:VEVENT")
    lines.append("END:VCALENDAR")
    path.write_text("\r\n".join(lines) + "\r\n", encoding="utf-8", newline="")


def main():
    viewer = zoneinfo.ZoneInfo(VIEWER_ZONE)
    generate_rules(CORPUS / "generated-rules.ics")
    files = sorted(CORPUS.glob("*.ics"))
    if not files:
        sys.exit(f"no .ics files in {CORPUS}")
    for path in files:
        result = {
            "generator": f"icalendar {icalendar.__version__}, recurring-ical-events {version('recurring-ical-events')}",
            "viewerZone": VIEWER_ZONE,
            "window": list(WINDOW),
            "occurrences": expand(path, viewer),
        }
        target = path.with_suffix(".expected.json")
        # One occurrence a line: small files, readable diffs.
        head = json.dumps({k: v for k, v in result.items() if k != "occurrences"}, ensure_ascii=False)[:-1]
        rows = ",\n  ".join(json.dumps(o, ensure_ascii=False) for o in result["occurrences"])
        target.write_text(f'{head}, "occurrences": [\n  {rows}\n]}}\n', encoding="utf-8")
        print(f"{target.name}: {len(result['occurrences'])} occurrences")


if __name__ == "__main__":
    main()
