#!/usr/bin/env python3
"""Writes the expected occurrences of the calendar corpus, for CalendarReferenceTests.

    pip install icalendar recurring-ical-events
    python3 Tests/reference/ics_reference.py

For every Tests/DashBuiltinWidgetsTests/Fixtures/ics/NAME.ics it expands the events
that overlap a fixed window with icalendar + recurring-ical-events, drops cancelled
ones (STATUS:CANCELLED, as the widget does) and writes NAME.expected.json beside it:
each occurrence's start and end (UTC for times, YYYY-MM-DD for all-day dates) and
summary, sorted. Floating times and all-day dates are read in VIEWER_ZONE, the zone
the Swift test gives the expander. CI does not run this script; the Swift test
compares with the committed JSON.
"""

import datetime
import json
import pathlib
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
        out.append({
            "start": utc_text(dtstart, viewer),
            "end": utc_text(dtend, viewer),
            "allDay": not isinstance(dtstart, datetime.datetime),
            "summary": " ".join(str(event.get("SUMMARY", "")).split()),
        })
    out.sort(key=lambda o: (o["start"], o["end"], o["summary"]))
    return out


def main():
    viewer = zoneinfo.ZoneInfo(VIEWER_ZONE)
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
        target.write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"{target.name}: {len(result['occurrences'])} occurrences")


if __name__ == "__main__":
    main()
