import Foundation
import Testing
import DashCore
import DashWidgets
import DashTestSupport
@testable import DashBuiltinWidgets

/// A copy of a todo.txt fixture in a folder of its own, and a context that points at it.
final class TodoDir {
    let dir: URL
    let file: URL
    init(fixture name: String) throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("swiftdash-todo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        file = dir.appendingPathComponent("todo.txt")
        try fixture("todo/\(name)").write(to: file)
    }
    init(bytes: Data) throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("swiftdash-todo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        file = dir.appendingPathComponent("todo.txt")
        try bytes.write(to: file)
    }
    deinit { try? FileManager.default.removeItem(at: dir) }

    var config: WidgetConfig { WidgetConfig(["file": .string(file.path)]) }
    var bytes: Data { (try? Data(contentsOf: file)) ?? Data() }
    var lines: [[UInt8]] { TodoFile(bytes).lines.map { $0.bytes + $0.ending } }
    var otherFiles: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).filter { $0 != "todo.txt" }
    }
}

let fixtures = ["lf.txt", "crlf-bom-no-final-newline.txt", "broken-lines.txt"]

func perform(_ action: ReminderAction, _ t: TodoDir, at now: Date = testNow) async throws -> ReminderAction? {
    let ctx = TimelineContext(family: .medium, now: now)
    let inverse = try await RemindersWidget.widget.perform(ActionPayload(action), configuration: t.config, in: ctx)
    return try inverse?.decode(ReminderAction.self)
}

@Suite struct TodoTxtTests {
    @Test(arguments: fixtures)
    func readingAndWritingBackIsByteIdentical(_ name: String) {
        let data = fixture("todo/\(name)")
        #expect(TodoFile(data).data == data)
    }

    @Test func tasksReadAsTodoTxtDefinesThem() throws {
        let items = TodoTxt.items(TodoFile(fixture("todo/lf.txt")))
        #expect(items.count == 8, "blank lines are not tasks")
        let mom = try #require(items.first)
        #expect(mom.priority == "A" && mom.contexts == ["phone"] && mom.title == "Thank Mom for the meatballs")
        let goodwill = items[1]
        #expect(goodwill.projects == ["GarageSale"] && goodwill.due == "2026-11-24")
        #expect(items[2].title == "Post signs around the neighborhood", "unknown tags are not shown")
        #expect(items[2].raw.hasSuffix("t:2026-11-20"), "…but kept")
        let rent = items[4]
        #expect(rent.done && rent.completed == "2026-11-20" && rent.created == "2026-11-18" && rent.priority == "A")
        let passport = items[5]
        #expect(passport.created == "2026-11-01" && passport.due == "2026-11-21")
        #expect(passport.title == "Renew passport https://example.org/passport", "a URL is not a tag")
        #expect(items[7].title == "Plan trip to Lisbon" && items[7].raw.contains("\t"))
        #expect(items.allSatisfy { !$0.isBroken })
    }

    @Test func aByteOrderMarkIsNotPartOfTheTask() throws {
        let items = TodoTxt.items(TodoFile(fixture("todo/crlf-bom-no-final-newline.txt")))
        #expect(items[0].priority == "A" && items[0].title == "Call mom")
        #expect(items[0].raw.hasPrefix("\u{FEFF}"), "the line is matched as it is in the file")
        #expect(items.last?.due == "2026-11-30")
    }

    @Test func brokenLinesAreShownAsTheyAreWithTheReason() {
        let items = TodoTxt.items(TodoFile(fixture("todo/broken-lines.txt")))
        let problems = items.map(\.problem)
        #expect(
            problems == [
                nil, "not UTF-8", "control characters", "due:2026-02-30 is not a date (YYYY-MM-DD)",
                nil, nil,
            ])
        #expect(items[1].raw == "Caf\u{FFFD} receipt for taxes @home", "shown, with the bad byte marked")
        #expect(!items[2].raw.contains("\u{1B}"), "no escape sequence reaches the screen")
        #expect(items[3].raw == "Dentist due:2026-02-30")
        #expect(items[4].title == "Mixed ending line")
    }

    @Test func doneAndOpenAgainFollowTheConventions() {
        let done = TodoTxt.markDone("(A) 2026-11-01 Call mom +family due:2026-11-23", day: "2026-11-23")
        #expect(done == "x 2026-11-23 2026-11-01 Call mom +family due:2026-11-23 pri:A")
        #expect(TodoTxt.reopen(done) == "(A) 2026-11-01 Call mom +family due:2026-11-23")
        #expect(TodoTxt.reopen("x 2026-11-20 2026-11-18 Pay rent +home pri:A") == "(A) 2026-11-18 Pay rent +home")
        #expect(TodoTxt.reopen("x Water plants") == "Water plants")
        #expect(TodoTxt.markDone("x 2026-11-20 Already", day: "2026-11-23") == "x 2026-11-20 Already")
    }
}

@Suite struct RemindersActionTests {
    /// Every open task of every fixture, ticked on a copy of the file: only its line changes, and
    /// the undo gives back the very same bytes.
    @Test(arguments: fixtures)
    func tickingChangesOnlyItsLineAndUndoGivesTheFileBack(_ name: String) async throws {
        let original = fixture("todo/\(name)")
        for item in TodoTxt.items(TodoFile(original)) where !item.isBroken {
            let t = try TodoDir(fixture: name)
            let before = t.lines
            let tick = ReminderAction.setDone(line: item.line, text: item.raw, done: !item.done)
            let inverse = try #require(try await perform(tick, t))
            let after = t.lines
            #expect(after.count == before.count)
            for i in before.indices where i != item.line {
                #expect(after[i] == before[i], "line \(i + 1) of \(name) changed when line \(item.line + 1) was ticked")
            }
            let changed = String(decoding: after[item.line], as: UTF8.self)
            if item.done {
                #expect(!changed.contains("x 20"), "\(changed)")
            } else {
                #expect(changed.hasPrefix(item.raw.hasPrefix("\u{FEFF}") ? "\u{FEFF}x 2026-11-23 " : "x 2026-11-23 "))
            }
            #expect(
                Array(after[item.line].suffix(before[item.line].count - item.raw.utf8.count))
                    == Array(before[item.line].suffix(before[item.line].count - item.raw.utf8.count)),
                "the line keeps its ending")
            #expect(t.otherFiles.isEmpty, "no temp file is left behind")
            _ = try await perform(inverse, t)
            #expect(t.bytes == original, "undo restores \(name) byte for byte")
        }
    }

    @Test func aLargeFileIsTickedQuicklyAndStillOnlyOneLineChanges() async throws {
        // 10,000 tasks (about 520 KB): read, find the line, write back atomically.
        var text = ""
        for i in 0..<10_000 { text += "(B) Task number \(i) +project\(i % 7) @ctx due:2026-12-\(10 + i % 19)\r\n" }
        let t = try TodoDir(bytes: Data(text.utf8))
        let before = t.lines
        let clock = ContinuousClock()
        let started = clock.now
        _ = try await perform(
            .setDone(
                line: 9_000, text: "(B) Task number 9000 +project5 @ctx due:2026-12-23",
                done: true), t)
        let took = clock.now - started
        print("ticking line 9,001 of a 10,000-line todo.txt took \(took)")
        // A figure, not a target: speed lives in measurements (docs/measuring.md), not timed tests.
        let after = t.lines
        #expect(after.indices.filter { after[$0] != before[$0] } == [9_000])
        let entries = try await RemindersProvider().timeline(for: t.config, in: context(.large))
        #expect(entries.entries[0].items.count == RemindersProvider.maxItems, "the entry keeps at most 1,000 tasks")
    }

    @Test func aBrokenLineIsNeverRewritten() async throws {
        let t = try TodoDir(fixture: "broken-lines.txt")
        let original = t.bytes
        await #expect(throws: ActionError.self) {
            _ = try await perform(.setDone(line: 3, text: "Dentist due:2026-02-30", done: true), t)
        }
        #expect(t.bytes == original)
    }

    @Test func aLineThatMovedIsFoundAndOneThatChangedIsLeftAlone() async throws {
        let t = try TodoDir(fixture: "lf.txt")
        // Someone added a task at the top since the tile was drawn.
        try (Data("New task on top\n".utf8) + fixture("todo/lf.txt")).write(to: t.file)
        _ = try await perform(
            .setDone(
                line: 1, text: "(B) Schedule Goodwill pickup +GarageSale @phone due:2026-11-24",
                done: true), t)
        #expect(
            String(decoding: t.lines[2], as: UTF8.self)
                == "x 2026-11-23 Schedule Goodwill pickup +GarageSale @phone due:2026-11-24 pri:B\n")
        let before = t.bytes
        do {
            _ = try await perform(.setDone(line: 0, text: "(A) Thank Mom for the lasagne @phone", done: true), t)
            Issue.record("a task that changed on disk must not be ticked")
        } catch {
            #expect("\(error)".contains("changed in"), "\(error)")
        }
        #expect(t.bytes == before)
    }

    @Test func theWriteKeepsPermissionsAndFollowsASymlink() async throws {
        let t = try TodoDir(fixture: "lf.txt")
        chmod(t.file.path, 0o600)
        let link = t.dir.appendingPathComponent("link.txt")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: t.file)
        let ctx = TimelineContext(family: .medium, now: testNow)
        let action = ActionPayload(
            ReminderAction.setDone(
                line: 0, text: "(A) Thank Mom for the meatballs @phone",
                done: true))
        _ = try await RemindersWidget.widget.perform(
            action, configuration: WidgetConfig(["file": .string(link.path)]),
            in: ctx)
        #expect(String(decoding: t.lines[0], as: UTF8.self).hasPrefix("x 2026-11-23 "))
        let attrs = try FileManager.default.attributesOfItem(atPath: t.file.path)
        #expect((attrs[.posixPermissions] as? Int) == 0o600)
        #expect(
            (try? FileManager.default.destinationOfSymbolicLink(atPath: link.path)) == t.file.path,
            "the link stays")
    }
}

@Suite struct RemindersTimelineTests {
    func timeline(_ t: TodoDir, at now: Date = testNow, zone: String = "UTC") async throws -> [RemindersEntry] {
        let ctx = TimelineContext(
            family: .large, size: contentSize(.large), now: now,
            timeZone: TimeZone(identifier: zone)!)
        let tl = try await RemindersProvider().timeline(for: t.config, in: ctx)
        #expect(tl.policy == .atEnd)
        return tl.entries
    }

    @Test func overdueAndDueTodayMakeTheTileRelevantAndMidnightMovesThemOn() async throws {
        let t = try TodoDir(fixture: "crlf-bom-no-final-newline.txt")
        let entries = try await timeline(t)
        #expect(entries.map(\.day) == ["2026-11-23", "2026-11-24", "2026-11-25"])
        #expect(entries[1].date == Date(timeIntervalSince1970: 1_795_478_400), "at midnight")
        let today = entries[0]
        #expect(today.overdueCount == 1 && today.dueTodayCount == 1)
        #expect(today.relevance == Relevance(score: 1.0))
        #expect(today.upcoming.map(\.title) == ["Buy milk", "Call mom", "Write report"], "next due first")
        #expect(entries[1].overdueCount == 2, "tomorrow, today's task is overdue too")
        #expect(today.doneTotal == 1)
    }

    @Test func todayIsTheUsersDay() async throws {
        // 23:30 UTC on the 23rd is already the 24th in Tokyo.
        let t = try TodoDir(fixture: "crlf-bom-no-final-newline.txt")
        let entries = try await timeline(t, at: testNow.addingTimeInterval(14.5 * 3600), zone: "Asia/Tokyo")
        #expect(entries[0].day == "2026-11-24")
        #expect(entries[0].overdueCount == 2)
    }

    @Test func noTaskDueMeansNoRelevance() async throws {
        let t = try TodoDir(bytes: Data("Someday: learn the banjo\n".utf8))
        #expect(try await timeline(t)[0].relevance == nil)
    }

    /// Nobody has written a list yet: not a failure (issue 23), one entry that says how to start.
    @Test func aMissingFileIsAnEmptyListThatSaysHowToStart() async throws {
        let ctx = TimelineContext(family: .medium, now: testNow)
        let missing = WidgetConfig(["file": .string("/nonexistent/todo.txt")])
        let timeline = try await RemindersProvider().timeline(for: missing, in: ctx)
        #expect(timeline.entries.count == 1)
        #expect(timeline.entries[0].missingFile == true)
        #expect(timeline.entries[0].items.isEmpty)
        // Issue 35.1: it waits for the file (watched) to appear, not for the clock.
        #expect(timeline.policy == .never)
    }

    @Test func tildeIsTheHomeGivenInTheEnvironment() {
        let ctx = TimelineContext(family: .medium, now: testNow, environment: ["HOME": "/home/ada"])
        #expect(
            RemindersProvider.path(WidgetConfig(["file": .string("~/notes/todo.txt")]), ctx)
                == "/home/ada/notes/todo.txt")
        #expect(RemindersProvider.path(WidgetConfig(), ctx) == "/home/ada/todo.txt")
        #expect(RemindersWidget.widget.watchedFiles(for: WidgetConfig(), in: ctx) == ["/home/ada/todo.txt"])
    }

    @Test(arguments: [WidgetFamily.small, .medium, .large])
    func tilesSayMoreAsTheyGrow(_ family: WidgetFamily) async throws {
        let t = try TodoDir(fixture: "broken-lines.txt")
        let entry = try #require(try await timeline(t).first)
        let tile = render(RemindersWidget.widget, AnyEntry(entry), family)
        assertSnapshot(tile.text, named: "reminders-broken-\(family.rawValue)")
    }

    @Test func theDetailPaneListsEveryLineBrokenOnesAsTheyAre() async throws {
        let t = try TodoDir(fixture: "broken-lines.txt")
        let ctx = TimelineContext(family: .large, now: testNow, environment: ["HOME": t.dir.path])
        let tl = try await RemindersProvider().timeline(for: WidgetConfig(["file": .string("~/todo.txt")]), in: ctx)
        let entry = try #require(tl.entries.first)
        let view = RemindersWidget.widget.detail(
            for: DeepLink("swiftdash://reminders/all")!, entry: AnyEntry(entry),
            in: context(.large))
        let text = render(view, width: 70, height: 16).text
        assertSnapshot(text, named: "reminders-detail")
        #expect(text.contains("line 4: due:2026-02-30 is not a date"))
        #expect(text.contains("Caf\u{FFFD} receipt"))
    }
}

/// Issue 24.6: what the file says is shown, even when odd.
@Suite struct RemindersOddFileTests {
    func entry(_ t: TodoDir) async throws -> RemindersEntry {
        let ctx = TimelineContext(family: .large, size: contentSize(.large), now: testNow)
        return try #require(try await RemindersProvider().timeline(for: t.config, in: ctx).entries.first)
    }

    func error(_ path: String) async -> String? {
        let ctx = TimelineContext(family: .medium, now: testNow)
        do {
            _ = try await RemindersProvider().timeline(for: WidgetConfig(["file": .string(path)]), in: ctx)
            return nil
        } catch { return "\(error)" }
    }

    /// Lines holding ESC, BEL or C1 bytes vanished: a file of only such lines showed "All done".
    @Test(arguments: [WidgetFamily.small, .medium, .large])
    func todoLinesWithControlBytesAreShownSanitisedAndCounted(_ family: WidgetFamily) async throws {
        let t = try TodoDir(bytes: Data("\u{1B}[31mRed alert\u{1B}[0m\n\u{07}Ring the bell\nC1 \u{85}line\n".utf8))
        let e = try await entry(t)
        #expect(e.brokenCount == 3 && e.openCount == 0)
        let text = render(RemindersWidget.widget, AnyEntry(e), family).text
        #expect(!text.contains("All done"), "\(text)")
        #expect(text.contains("⚠"), "\(text)")
        #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || (0x7F...0x9F).contains($0.value) })
        if family != .small {
            #expect(text.contains("Red alert") && text.contains("Ring the bell"), "\(text)")
        } else {
            #expect(text.contains("⚠ 3") && text.contains("line 1: Red"), "\(text)")
        }
        #expect(e.summary == "0 open; 3 lines not understood")
    }

    @Test func aReminderPathThatIsAFolderSaysSo() async throws {
        let t = try TodoDir(bytes: Data())
        #expect(await error(t.dir.path) == "\(t.dir.path) is a folder, not a file; name a file in it")
    }

    /// `render` never finished on a FIFO: it is refused at once, never opened for a blocking read.
    @Test func aReminderPathThatIsAFIFOOrDeviceIsRefusedAtOnce() async throws {
        let t = try TodoDir(bytes: Data())
        let fifo = t.dir.appendingPathComponent("pipe.txt").path
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(await error(fifo) == "\(fifo) is not a regular file (a named pipe); not read")
        #expect(await error("/dev/zero") == "/dev/zero is not a regular file (a character device); not read")
    }

    /// A 100,000-line list said "999 open": every task is counted, though 1,000 are kept.
    @Test func aHundredThousandLineListSaysHowManyTasks() async throws {
        let t = try TodoDir(bytes: Data(String(repeating: "t\n", count: 100_000).utf8 + Array("\u{07}odd\n".utf8)))
        let e = try await entry(t)
        #expect(e.items.count == RemindersProvider.maxItems)
        #expect(e.openCount == 100_000 && e.brokenCount == 1)
        #expect(e.summary.hasPrefix("100000 open"))
        let text = render(RemindersWidget.widget, AnyEntry(e), .large).text
        #expect(text.contains("100000 open") && text.contains("All 100001 ›"), "\(text)")
    }
}

/// Issue 24.3: a tick never loses a byte another writer put in the file meanwhile.
@Suite struct RemindersCompareAndSwapTests {
    /// An editor writes the file between the tick's read and its rename: the tick reads the file
    /// again and makes its one-line change on what the editor wrote.
    @Test func aUsersFileNeverLosesAByteToARaceTheTickIsMadeAgain() async throws {
        let t = try TodoDir(bytes: Data("Buy milk\nCall mom\n".utf8))
        let target = AtomicFile.resolved(t.file.path)
        var writes = 0
        AtomicFile.beforeSwap.set(target) {
            writes += 1
            if writes == 1 { try? Data("Buy milk\nEditor's new line\nCall mom\n".utf8).write(to: t.file) }
        }
        defer { AtomicFile.beforeSwap.set(target, nil) }
        _ = try await perform(.setDone(line: 1, text: "Call mom", done: true), t)
        #expect(writes == 2)
        #expect(String(decoding: t.bytes, as: UTF8.self) == "Buy milk\nEditor's new line\nx 2026-11-23 Call mom\n")
    }

    /// The editor removed the task meanwhile: refused with the reason, the editor's file kept.
    @Test func aUsersFileNeverLosesAByteToARaceOrTheTickIsRefused() async throws {
        let t = try TodoDir(bytes: Data("Buy milk\nCall mom\n".utf8))
        let target = AtomicFile.resolved(t.file.path)
        AtomicFile.beforeSwap.set(target) { try? Data("Buy milk\n".utf8).write(to: t.file) }
        defer { AtomicFile.beforeSwap.set(target, nil) }
        await #expect(throws: (any Error).self) {
            try await perform(.setDone(line: 1, text: "Call mom", done: true), t)
        }
        #expect(String(decoding: t.bytes, as: UTF8.self) == "Buy milk\n")
        #expect(t.otherFiles.isEmpty, "no temporary file left")
    }

    /// The compare covers the bytes, not only size and time: a same-size rewrite within the
    /// same clock tick is seen.
    @Test func aUsersFileNeverLosesAByteToARaceSameSizeRewrite() throws {
        let t = try TodoDir(bytes: Data("aaaa\n".utf8))
        let (data, identity) = try AtomicFile.readForUpdate(t.file.path, limit: 1024)
        #expect(data == Data("aaaa\n".utf8))
        let fd = open(t.file.path, O_WRONLY)
        _ = "bbbb".withCString { write(fd, $0, 4) }
        close(fd)
        var st = stat()
        stat(t.file.path, &st)
        var times = [st.st_atim, identity.map { timespec(tv_sec: $0.modified, tv_nsec: $0.modifiedNanoseconds) }!]
        let rfd = open(t.file.path, O_RDONLY)
        futimens(rfd, &times)
        close(rfd)
        #expect(throws: AtomicFile.Changed.self) {
            try AtomicFile.write(Data("cccc\n".utf8), to: t.file.path, ifStill: identity)
        }
        #expect(String(decoding: t.bytes, as: UTF8.self) == "bbbb\n")
    }
}
