#!/usr/bin/env python3
"""The default home screen "online" for idle measurements, with no network: serves the test
fixtures on 127.0.0.1 and writes a home.yaml like the built-in default home (clock, two coins,
news, commits, calendar) whose endpoints point at it.

    python3 Tests/perf/fixtures_online.py CONFIG_DIR [PORT]   # serves until killed
    ../shared/perf/measure.sh -d 60 -s 160x48 --env XDG_CONFIG_HOME=CONFIG_DIR -- .build/release/swiftdash
"""
import http.server, os, sys

root = os.path.dirname(os.path.abspath(__file__))
fixtures = os.path.join(root, "..", "DashBuiltinWidgetsTests", "Fixtures")
ics = os.path.join(root, "..", "..", "examples", "calendar", "sample.ics")

ROUTES = [
    ("/api/v3/coins/markets", "coingecko_markets.json", "application/json"),
    ("/repos/swiftlang/swift/branches", "github_branch.json", "application/json"),
    ("/repos/swiftlang/swift/commits", "github_commits.json", "application/json"),
    ("/feed.xml", "rss_world.xml", "application/rss+xml"),
]


class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        for prefix, name, kind in ROUTES:
            if self.path.startswith(prefix):
                body = open(os.path.join(fixtures, name), "rb").read()
                self.send_response(200)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
                return
        self.send_response(404)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


def main():
    config = sys.argv[1]
    port = int(sys.argv[2]) if len(sys.argv) > 2 else 18080
    base = "http://127.0.0.1:%d" % port
    os.makedirs(os.path.join(config, "swiftdash"), exist_ok=True)
    with open(os.path.join(config, "swiftdash", "home.yaml"), "w") as f:
        f.write("""tiles:
  - {family: small, widget: clock}
  - {family: small, widget: crypto, config: {endpoint: "%(b)s/api/v3"}}
  - {family: medium, widget: news, config: {feed: "%(b)s/feed.xml"}}
  - {family: medium, widget: commits, config: {endpoint: "%(b)s", account: swiftlang, repo: swift}}
  - {family: large, widget: calendar, config: {files: ["%(ics)s"]}}
  - {family: medium, widget: crypto, config: {coin: ETH, endpoint: "%(b)s/api/v3"}}
""" % {"b": base, "ics": os.path.abspath(ics)})
    http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler).serve_forever()


if __name__ == "__main__":
    main()
