import Foundation
import DashWidgets

/// What the calendar tile shows from `date` on: the events that have not ended and start
/// within the coming days.
public struct CalendarEntry: TimelineEntry, Hashable {
    public var date: Date
    /// The tile's title ("Calendar" or the configured label).
    public var label: String
    /// The IANA zone days and times are shown in.
    public var timeZone: String
    public var daysAhead: Int
    /// Sorted by start; events that ended before `date` are gone.
    public var events: [CalendarOccurrence]
    /// Lines or sources that could not be read, shown in the problems pane.
    public var problems: [CalendarProblem]
    /// The calendars read ("Work (Google)", "holidays").
    public var calendars: [String]
    public var isSample: Bool
    public var isPlaceholder: Bool

    public init(
        date: Date, label: String, timeZone: String, daysAhead: Int, events: [CalendarOccurrence],
        problems: [CalendarProblem] = [], calendars: [String] = [], isSample: Bool = false,
        isPlaceholder: Bool = false
    ) {
        self.date = date
        self.label = label
        self.timeZone = timeZone
        self.daysAhead = daysAhead
        self.events = events
        self.problems = problems
        self.calendars = calendars
        self.isSample = isSample
        self.isPlaceholder = isPlaceholder
    }

    /// Timed events under way at `date`.
    public var running: [CalendarOccurrence] { events.filter { !$0.allDay && $0.start <= date && date < $0.end } }
    public var summary: String {
        let timed = events.filter { !$0.allDay && $0.end > date }
        guard let n = timed.first(where: { $0.start >= date }) ?? timed.first else {
            return events.isEmpty ? "no events in the next \(daysAhead) days" : "\(events.count) all-day events"
        }
        let zone = CalendarFormat.zone(timeZone)
        let when =
            n.start <= date
            ? "now" : CalendarFormat.day(n.start, zone, today: date) + " " + CalendarFormat.hm(n.start, zone)
        var s = "\(events.count) events; next \(n.summary.isEmpty ? "(no title)" : n.summary) \(when)"
        if !problems.isEmpty { s += "; \(problems.count) problems" }
        return s
    }

    /// 1 while a timed event runs, 0.75 in the 15 minutes before one starts.
    public var relevance: Relevance? {
        guard !isPlaceholder else { return nil }
        let run = running
        if let ends = run.map(\.end).min() {
            return Relevance(score: 1, duration: ends.timeIntervalSince(date))
        }
        if let n = events.first(where: { !$0.allDay && $0.start > date }),
            n.start.timeIntervalSince(date) <= CalendarWidget.soon
        {
            return Relevance(score: 0.75, duration: n.start.timeIntervalSince(date))
        }
        return nil
    }

    public func occurrence(uid: String, start: Double?) -> CalendarOccurrence? {
        let same = events.filter { $0.uid == uid }
        if let start {
            return same.first { abs($0.start.timeIntervalSince1970 - start) < 1 } ?? same.first
        }
        return same.first
    }
}

/// Next events from `.ics` files or calendar URLs (Google, Outlook, Apple, Fastmail
/// exports and subscriptions): small shows the next event with a countdown, medium the
/// next three, large an agenda of the coming days, extraLarge a week grid.
public enum CalendarWidget {
    public static let kind = "calendar"
    /// Relevance rises this long before an event.
    static let soon: TimeInterval = 15 * 60
    /// At most this many calendars per tile.
    static let maxSources = 10
    /// Events kept per entry (enough for the week grid).
    static let maxEventsPerEntry = 40
    static let maxEntries = 200
    static let maxProblemsShown = 20
    /// Calendars fetched over the network are re-read at most this often (the daily
    /// budget: 48 reloads a day at most).
    static let minimumNetworkRefresh: TimeInterval = 30 * 60

    public static let schema = ConfigurationSchema([
        Parameter(
            key: "files", title: "Calendars",
            help: "Paths of .ics files (absolute, or ~/…) or http(s)/webcal URLs, comma-separated; "
                + "empty (or 'sample') for a built-in sample calendar",
            kind: .list(itemPattern: nil), default: .list([])),
        Parameter(
            key: "daysAhead", title: "Days ahead", help: "How many days of events the tile looks ahead",
            kind: .integer(1...31), default: .int(7)),
        Parameter(
            key: "label", title: "Label", help: "The tile's title; 'Calendar' when empty",
            kind: .string(pattern: nil), default: .string("")),
        Parameter(
            key: "refreshMinutes", title: "Re-read every",
            help: "Minutes between reads of the calendars (URLs: at least 30)",
            kind: .integer(5...1440), default: .int(60)),
    ])

    /// The calendar widget; URLs are fetched with `http` (through `swiftdash-fetch` by default).
    public static func make(http: HTTPClient = CalendarWidget.defaultHTTP) -> Widget {
        var w = Widget(
            kind: kind, displayName: "Calendar",
            description: "Next events from .ics files or calendar URLs; a countdown, an agenda, a week grid",
            supportedFamilies: [.small, .medium, .large, .extraLarge],
            schema: schema, cost: .local, timeout: Double(maxSources) * (http.options.totalTimeout + 2) + 5,
            provider: CalendarProvider(http: http),
            view: { entry, ctx in CalendarViews.tile(entry, ctx) },
            detail: { link, entry, ctx in CalendarViews.detail(link, entry, ctx) })
        w.costFor = { reloadCost(for: $0) }
        return w
    }

    public static let widget: Widget = make()

    /// Calendar exports can be large: 10 MB like local files.
    public static let defaultHTTP = HTTPClient(
        options: HTTPOptions(
            connectTimeout: 5, totalTimeout: 15,
            maxBytes: ICSReader.maxBytes))

    /// How reloads of this configuration should be charged: free when it reads only local
    /// files, against the daily budget when it fetches URLs (`Widget.costFor`).
    public static func reloadCost(for config: WidgetConfig) -> ReloadCost {
        config.list("files").contains { CalendarSource.isURL($0) } ? .budgeted : .local
    }

    static func eventLink(_ e: CalendarOccurrence) -> String {
        DeepLink.make(
            kind: kind, "event", query: ["uid": e.uid, "start": String(Int64(clamping: e.start.timeIntervalSince1970, to: .unixSeconds))])
    }
    static let agendaLink = DeepLink.make(kind: kind, "agenda")
    static let problemsLink = DeepLink.make(kind: kind, "problems")

    /// The entries of one load: one now, one 15 minutes before each start, one at each
    /// start and end, and one at each local midnight, up to `windowEnd`. Each holds the
    /// events not yet ended that start within `daysAhead` days of its date.
    static func entries(
        occurrences: [CalendarOccurrence], now: Date, windowEnd: Date, daysAhead: Int,
        zone: CalendarZone, label: String, problems: [CalendarProblem], calendars: [String],
        isSample: Bool
    ) -> [CalendarEntry] {
        var dates = Set<Date>([now])
        func add(_ d: Date) { if d > now && d < windowEnd { dates.insert(d) } }
        for o in occurrences {
            add(o.start)
            add(o.end)
            if !o.allDay { add(o.start.addingTimeInterval(-soon)) }
        }
        var midnight = CalendarFormat.nextMidnight(after: now, zone)
        while midnight < windowEnd {
            add(midnight)
            midnight = CalendarFormat.nextMidnight(after: midnight, zone)
        }
        let sorted = dates.sorted().prefix(maxEntries)
        let shown = Array(problems.prefix(maxProblemsShown))
        return sorted.map { d in
            let horizon = d.addingTimeInterval(Double(daysAhead) * 86_400)
            let events = occurrences.filter { o in
                (o.end > d || (o.start == o.end && o.start >= d)) && o.start < horizon
            }
            return CalendarEntry(
                date: d, label: label, timeZone: zone.id, daysAhead: daysAhead,
                events: Array(events.prefix(maxEventsPerEntry)), problems: shown,
                calendars: calendars, isSample: isSample)
        }
    }
}

struct CalendarProvider: TimelineProvider {
    let http: HTTPClient

    func placeholder(in context: TimelineContext) -> CalendarEntry {
        var e = CalendarSample.entry(now: context.now, zone: CalendarFormat.zone(context.timeZone), label: "Calendar")
        e.isPlaceholder = true
        return e
    }

    func snapshot(for configuration: WidgetConfig, in context: TimelineContext) async -> CalendarEntry {
        let label = CalendarSource.label(configuration)
        let sample = CalendarSample.entry(now: context.now, zone: CalendarFormat.zone(context.timeZone), label: label)
        // The gallery and `preview` want an answer at once: the built-in sample, no files or network.
        if context.isPreview { return sample }
        return (try? await timeline(for: configuration, in: context).entries.first) ?? sample
    }

    func timeline(for configuration: WidgetConfig, in context: TimelineContext) async throws -> Timeline<CalendarEntry>
    {
        let source = CalendarSource(config: configuration, http: http, environment: context.environment)
        let zone = CalendarFormat.zone(context.timeZone)
        let refresh = source.refresh
        let windowEnd = context.now.addingTimeInterval(refresh)
        let loaded = try await source.load(
            from: context.now, to: windowEnd.addingTimeInterval(Double(source.daysAhead) * 86_400),
            zone: zone)
        let entries = CalendarWidget.entries(
            occurrences: loaded.occurrences, now: context.now, windowEnd: windowEnd,
            daysAhead: source.daysAhead, zone: zone, label: source.label,
            problems: loaded.problems, calendars: loaded.calendars,
            isSample: source.usesSample)
        return Timeline(entries: entries, policy: .after(windowEnd))
    }
}

/// Where a tile's calendars come from, and reading them.
struct CalendarSource: Sendable {
    let items: [String]
    let daysAhead: Int
    let label: String
    let refresh: TimeInterval
    let http: HTTPClient
    let home: String?

    init(config: WidgetConfig, http: HTTPClient, environment: [String: String]) {
        let list = config.list("files").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        items = list
        daysAhead = min(31, max(1, config.int("daysAhead") ?? 7))
        label = Self.label(config)
        let minutes = TimeInterval(min(1440, max(5, config.int("refreshMinutes") ?? 60))) * 60
        refresh = list.contains(where: Self.isURL) ? max(minutes, CalendarWidget.minimumNetworkRefresh) : minutes
        self.http = http
        home = environment["HOME"]
    }

    static func label(_ config: WidgetConfig) -> String {
        let l = TextSanitizer.singleLine(config.string("label"))
        return l.isEmpty ? "Calendar" : String(l.prefix(40))
    }

    var usesSample: Bool { items.isEmpty || items.allSatisfy { $0.lowercased() == "sample" } }

    static func isURL(_ s: String) -> Bool {
        let l = s.lowercased()
        return l.hasPrefix("http://") || l.hasPrefix("https://") || l.hasPrefix("webcal://")
            || l.hasPrefix("webcals://")
    }

    struct Loaded {
        var occurrences: [CalendarOccurrence]
        var problems: [CalendarProblem]
        var calendars: [String]
    }

    /// Reads every calendar and expands [from, to). A calendar that cannot be read is a
    /// problem of the entry; only when none can be read does the load fail (and the tile
    /// keeps its last good entry, marked stale).
    func load(from: Date, to: Date, zone: CalendarZone) async throws -> Loaded {
        var all: [CalendarOccurrence] = []
        var problems: [CalendarProblem] = []
        var calendars: [String] = []
        var failures: [DataSourceError] = []
        let list = usesSample ? ["sample"] : Array(items.prefix(CalendarWidget.maxSources))
        if items.count > CalendarWidget.maxSources {
            problems.append(
                CalendarProblem(
                    source: "configuration", line: nil,
                    message: "only the first \(CalendarWidget.maxSources) calendars are read"))
        }
        for item in list {
            do {
                let (data, name) = try await read(item)
                let doc = CalendarParser.parse(data, source: name)
                guard doc.isCalendar else {
                    let name = Self.shownName(item)
                    throw DataSourceError(.badData, "\(name) is not an iCalendar file (no BEGIN:VCALENDAR)")
                }
                let expanded = doc.occurrences(from: from, to: to, viewer: zone)
                all += expanded.occurrences
                problems += doc.problems + expanded.problems
                calendars.append(doc.name)
            } catch let e as DataSourceError {
                failures.append(e)
                problems.append(CalendarProblem(source: Self.shownName(item), line: nil, message: e.message))
            }
        }
        if calendars.isEmpty, let first = failures.first {
            throw failures.count == 1
                ? first
                : DataSourceError(first.reason, "none of \(failures.count) calendars could be read: \(first.message)")
        }
        all.sort { ($0.start, $0.end, $0.summary) < ($1.start, $1.end, $1.summary) }
        return Loaded(occurrences: all, problems: problems, calendars: calendars)
    }

    /// A source as the user may see it: a URL without its query (private calendar
    /// URLs carry their secret there) and user info, or the path.
    static func shownName(_ item: String) -> String {
        guard isURL(item), var comps = URLComponents(string: item) else { return TextSanitizer.singleLine(item) }
        comps.query = nil
        comps.user = nil
        comps.password = nil
        comps.fragment = nil
        let s = comps.string ?? "calendar URL"
        // Private feeds (Google's /private-…/basic.ics) keep their secret in the path.
        if s.contains("/private-") || s.count > 60, let host = comps.host {
            return "\(comps.scheme ?? "https")://\(host)/…"
        }
        return TextSanitizer.singleLine(s)
    }

    /// The address to fetch: `webcal://` and `webcals://` (calendar subscriptions) are https.
    static func httpURL(_ item: String) -> URL? {
        var text = item
        for scheme in ["webcal://", "webcals://"] where text.lowercased().hasPrefix(scheme) {
            text = "https://" + text.dropFirst(scheme.count)
        }
        guard let url = URL(string: text), let host = url.host, !host.isEmpty,
            ["http", "https"].contains(url.scheme?.lowercased() ?? "")
        else { return nil }
        return url
    }

    func read(_ item: String) async throws -> (Data, String) {
        if item.lowercased() == "sample" { return (Data(CalendarSample.ics.utf8), "sample") }
        if Self.isURL(item) {
            guard let url = Self.httpURL(item) else {
                throw DataSourceError(.configuration, "\(Self.shownName(item)) is not a valid URL")
            }
            let data = try await http.get(
                url, headers: ["Accept": "text/calendar, */*"],
                notFoundHint: "no calendar at this address")
            return (data, Self.shownName(item))
        }
        return (try readFile(item), (item as NSString).lastPathComponent)
    }

    func readFile(_ item: String) throws -> Data {
        var path = item
        if path == "~" || path.hasPrefix("~/") {
            if let home, !home.isEmpty {
                path = home + path.dropFirst()
            } else {
                path = (path as NSString).expandingTildeInPath
            }
        }
        let shown = TextSanitizer.singleLine(item)
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else {
            throw DataSourceError(.notFound, "calendar file \(shown) not found")
        }
        guard !isDir.boolValue else { throw DataSourceError(.configuration, "\(shown) is a folder, not an .ics file") }
        // A FIFO or a device would block the read (or never end): refused at once.
        var st = stat()
        if stat(path, &st) == 0, st.st_mode & S_IFMT != S_IFREG {
            throw DataSourceError(
                .configuration, "\(shown) is not a regular file (a \(AtomicFile.kindName(st.st_mode))); not read")
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw DataSourceError(.configuration, "cannot read \(shown) (permission?)")
        }
        defer { try? handle.close() }
        let data = (try? handle.read(upToCount: ICSReader.maxBytes + 1)) ?? Data()
        guard data.count <= ICSReader.maxBytes else {
            throw DataSourceError(.tooLarge, "\(shown) is larger than \(ICSReader.maxBytes / 1_048_576) MB: refused")
        }
        return data
    }
}
