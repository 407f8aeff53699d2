#!/usr/bin/env python3
"""A swiftdash extension in Python: counts down to a date you configure.

Speaks the protocol of docs/extensions.md: one JSON request per line on stdin, one JSON
answer per line on stdout. Uses only the standard library.
"""
import json
import sys
import time

KIND = "countdown"

# Titles of the countdowns whose "Remind me" toggle is on. Kept in memory for the example: a
# real extension keeps such state in a file, since swiftdash may start it again at any time.
reminded = set()


def describe():
    return {
        "protocol": 1,
        "widgets": [{
            "kind": KIND,
            "displayName": "Countdown",
            "description": "Days and a live timer until a date",
            "families": ["small", "medium"],
            "push": True,
            "parameters": [
                {"key": "title", "type": "string", "title": "Title", "default": "Launch"},
                {"key": "until", "type": "date", "title": "Date", "default": "2030-01-01"},
                {"key": "style", "type": "enum", "title": "Style", "options": ["days", "timer"], "default": "days"},
            ],
        }],
    }


def entry(config, now):
    title = config.get("title") or "Launch"
    until = float(config.get("until") or 0)
    days = max(0, int((until - now) // 86400))
    remind = title in reminded
    small = {"vstack": [
        {"text": title, "font": "headline"},
        {"text": f"{days} days", "font": "title", "color": "accent"},
        {"date": until, "style": "relative", "color": "secondary"},
    ], "widgetURL": f"swiftdash://{KIND}/about"}
    medium = {"hstack": [
        {"vstack": [
            {"text": title, "font": "headline"},
            {"text": f"{days} days", "color": "accent"},
            # Activating the toggle sends `perform` with this action; the tile then reloads.
            {"toggle": "Remind me", "isOn": remind, "action": "remind"},
        ]},
        {"spacer": 0},
        {"vstack": [{"text": "left", "color": "secondary"}, {"date": until, "style": "timer"}]},
    ]}
    return {
        "date": now,
        "summary": f"{title}: {days} days",
        "contentID": str(days),
        "relevance": ({"score": 1.0, "reason": "you asked to be reminded"} if remind
                      else {"score": 1.0 if days < 2 else 0.1, "reason": "the day is near"} if days < 7
                      else None),
        "views": {"small": small, "medium": medium},
        "details": {"about": {"vstack": [
            {"text": title, "font": "title"},
            {"text": "A countdown from examples/extensions/countdown.py"},
            {"link": "https://example.org/countdown", "view": "example.org"},
        ]}},
    }


def answer(request):
    method = request.get("method")
    params = request.get("params") or {}
    now = (params.get("context") or {}).get("now") or time.time()
    config = params.get("config") or {}
    if method == "describe":
        return describe()
    if method == "placeholder":
        return {"date": 0, "views": {"default": {"vstack": [{"text": "Launch"}, {"text": "00 days"}]}}}
    if method == "snapshot":
        return entry({"title": "Launch", "until": now + 12 * 86400}, now)
    if method == "timeline":
        # One entry now, one at the next midnight (UTC): the day count changes there.
        midnight = (int(now) // 86400 + 1) * 86400
        return {"entries": [entry(config, now), entry(config, midnight)], "policy": "atEnd"}
    if method == "options":
        return {"options": []}
    if method == "perform":
        if params.get("action") != "remind":
            raise ValueError("unknown action")
        title = config.get("title") or "Launch"
        reminded.symmetric_difference_update({title})
        # {} would do: swiftdash reloads the tile after every action. `undo` lets `u` flip it back.
        return {"undo": "remind"}
    raise ValueError(f"unknown method {method}")


def main():
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        request = json.loads(line)
        try:
            out = {"id": request.get("id"), "result": answer(request)}
        except Exception as e:  # an error answer costs this request only
            out = {"id": request.get("id"), "error": str(e)}
        sys.stdout.write(json.dumps(out) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
