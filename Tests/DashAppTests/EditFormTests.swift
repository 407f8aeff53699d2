import XCTest
import Foundation
import DashCore
import DashWidgets
import DashScheduler
import DashRender
import DashTestSupport
@testable import DashApp
@testable import DashHome
@testable import DashRuntime

/// The Edit Widget form through the `AppHarness`: typing, errors, save, cancel, every editor.
final class EditFormTests: XCTestCase {
    func open(_ h: AppHarness) {
        h.press(.char("e"))
        XCTAssertEqual(h.state.pane.kind, .form)
    }

    // MARK: - Opening, cancelling, saving

    func testEOpensAFormWithARowPerParameterAndEscChangesNothing() {
        let h = editHarness()
        _ = h.takeEffects()
        open(h)
        XCTAssertEqual(
            h.state.form?.fields.map(\.key),
            ["source", "symbol", "name", "count", "compact", "since", "path", "tags", "label", "token"])
        for title in ["Source", "Symbol", "Name", "Count", "Compact", "Since"] {
            XCTAssertTrue(h.screen.contains(title), title)
        }
        h.select("name")
        h.type("zzz")
        XCTAssertEqual(h.field("name")?.line.text, "homezzz")
        h.press(.escape, .escape)  // the first asks (below), the second discards
        XCTAssertEqual(h.state.pane.kind, .none)
        XCTAssertEqual(h.config(of: "w1"), WidgetConfig())
        XCTAssertEqual(h.writes, 0, "Esc writes nothing")
        XCTAssertEqual(h.state.focusedTile, "t1")
        XCTAssertTrue(h.loads.isEmpty, "and reloads nothing")
        h.skipPendingWork()
    }

    /// Issue 38.7: Esc over unsaved edits asks first; another key goes on editing; a form with
    /// no edit closes at once.
    func testEscInTheFormAsksBeforeThrowingEditsAway() {
        let h = editHarness()
        open(h)
        h.press(.escape)
        XCTAssertEqual(h.state.pane.kind, .none, "nothing edited: Esc closes at once")
        open(h)
        h.select("name")
        h.type("zzz")
        h.press(.escape)
        XCTAssertEqual(h.state.pane.kind, .form)
        XCTAssertTrue(h.screen.contains(Editing.discardQuestion), h.screen)
        XCTAssertEqual(h.field("name")?.line.text, "homezzz", "the edit is kept")
        h.type("y")
        XCTAssertFalse(h.screen.contains(Editing.discardQuestion), h.screen)
        h.press(.escape)
        XCTAssertEqual(h.state.pane.kind, .form, "asked again after more typing")
        h.press(.ctrl("s"))
        XCTAssertEqual(h.state.pane.kind, .none)
        XCTAssertEqual(h.config(of: "w1")?["name"], .string("homezzzy"))
        h.skipPendingWork()
    }

    func testKeysTypedInAFieldNeverReachTheHomeScreen() {
        let h = editHarness()
        open(h)
        h.select("label")
        h.type("quit?")
        XCTAssertFalse(h.state.quitting, "q types a q")
        XCTAssertEqual(h.state.theme.name, "dark")
        XCTAssertEqual(h.field("label")?.line.text, "quit?")
        h.press(.ctrl("c"))
        XCTAssertTrue(h.state.quitting, "Ctrl-C still quits from a form")
        h.skipPendingWork()
    }

    func testInvalidValuesSayWhatIsAllowedAndSaveIsRefusedWithTheReason() {
        let h = editHarness()
        open(h)
        h.select("name")
        h.press(.ctrl("u"))
        h.type("Home")
        let screen = h.screen
        XCTAssertTrue(screen.contains("✗ Name must be lower-case letters such as home"), screen)
        h.press(.ctrl("s"))
        XCTAssertEqual(h.state.pane.kind, .form, "refused")
        XCTAssertEqual(h.state.form?.problem, "Not saved: Name must be lower-case letters such as home")
        XCTAssertTrue(h.screen.contains("Not saved: Name must be lower-case letters"), h.screen)
        XCTAssertEqual(h.writes, 0)
        // The fix: Ctrl-A, delete the capital, type the small letter; Enter on Save.
        h.press(.ctrl("a"), .delete)
        h.type("h")
        XCTAssertFalse(h.screen.contains("✗"), h.screen)
        XCTAssertNil(h.state.form?.problem, "a change clears the refusal")
        h.select("name")
        for _ in 0..<8 { h.press(.down) }  // past the fields to Save
        XCTAssertEqual(h.state.form?.selected, h.state.form?.saveRow)
        h.press(.enter)
        XCTAssertEqual(h.state.pane.kind, .none)
        XCTAssertNil(h.config(of: "w1")?["name"], "the default again: the parameter stays unset")
        XCTAssertEqual(h.writes, 0, "the same value as before: nothing to write")
        XCTAssertTrue(h.screen.contains("no changes to Probe"), h.screen)
        h.skipPendingWork()
    }

    func testSaveAppliesAtOnceAsAnUnchargedReloadAndAsksToWriteTheFile() {
        let h = editHarness()
        open(h)
        h.select("name")
        h.press(.backspace, .backspace, .backspace, .backspace)
        h.type("office")
        _ = h.takeEffects()
        h.press(.ctrl("s"))
        XCTAssertEqual(h.state.pane.kind, .none)
        XCTAssertEqual(h.config(of: "w1"), WidgetConfig(["name": .string("office")]), "only what changed is set")
        XCTAssertEqual(h.written.last?.allInstances.first?.config["name"], .string("office"))
        XCTAssertTrue(h.effects.contains { if case .writeHome = $0 { return true } else { return false } })
        let job = h.load(of: "w1")
        XCTAssertEqual(job?.request.reason, .configurationChanged)
        XCTAssertEqual(job?.request.configuration["name"], .string("office"))
        XCTAssertEqual(h.state.scheduler.status("w1", at: h.clock.now)?.budget.used, 0, "not charged")
        answerAll(h)
        XCTAssertTrue(h.screen.contains("probe alpha BTC office"), h.screen)
        // Undo puts the old configuration back, with the scheduler.
        h.press(.char("u"))
        XCTAssertEqual(h.config(of: "w1"), WidgetConfig())
        XCTAssertEqual(h.load(of: "w1")?.request.configuration, WidgetConfig())
        h.skipPendingWork()
    }

    func testEnterOnCancelClosesWithoutChange() {
        let h = editHarness()
        open(h)
        h.select("name")
        h.type("x")
        h.press(.up, .up, .backTab)  // from the first row back around to Cancel
        XCTAssertEqual(h.state.form?.selected, h.state.form?.cancelRow)
        XCTAssertTrue(h.screen.contains("Cancel: close the form; nothing changes."), h.screen)
        h.press(.enter)
        XCTAssertEqual(h.state.pane.kind, .none)
        XCTAssertEqual(h.config(of: "w1"), WidgetConfig())
        h.skipPendingWork()
    }

    // MARK: - Enum and dynamic enum

    func testAnEnumPickerOpensWithEnterFiltersAsYouTypeAndArrowsChoose() {
        let h = editHarness()
        open(h)
        h.select("source")
        h.press(.enter)
        XCTAssertNotNil(h.state.form?.picker)
        XCTAssertEqual(h.state.form?.picker?.highlighted, 0, "on the current value")
        h.press(.down, .down)
        h.press(.enter)
        XCTAssertEqual(h.field("source")?.line.text, "gamma")
        XCTAssertNil(h.state.form?.picker)
        // Typing on the row opens the picker filtered.
        h.type("be")
        XCTAssertEqual(h.state.form?.picker?.filter, "be")
        XCTAssertTrue(h.screen.contains("▸ beta"), h.screen)
        XCTAssertFalse(h.screen.contains("  alpha"), h.screen)
        h.press(.backspace, .backspace)
        XCTAssertTrue(h.screen.contains("▸ alpha") && h.screen.contains("  gamma"), "Backspace widens the filter again")
        h.type("zz")
        XCTAssertTrue(h.screen.contains("nothing matches “zz”"), h.screen)
        h.press(.escape)
        XCTAssertNil(h.state.form?.picker, "Esc closes the picker, not the form")
        XCTAssertEqual(h.state.pane.kind, .form)
        XCTAssertEqual(h.field("source")?.line.text, "gamma")
        h.skipPendingWork()
    }

    func testADynamicEnumHasItsFixedOptionsAtOnceAndAddsLoadedOnesWithASpinnerMeanwhile() {
        let h = editHarness()
        open(h)
        XCTAssertEqual(h.optionLoads.map(\.key), ["symbol"], "loading starts when the form opens")
        h.select("symbol")
        XCTAssertTrue(h.screen.contains("BTC · Bitcoin ⠋ ▾") || h.screen.contains("⠋ ▾"), h.screen)
        XCTAssertNotNil(h.frame.nextLiveChange, "the spinner turns on a deadline")
        h.press(.enter)
        XCTAssertTrue(h.screen.contains("loading more choices"), h.screen)
        XCTAssertTrue(h.screen.contains("ETH · Ether"), "the fixed options work at once")
        h.answerOptions(
            .success([
                ParameterOption("LTC", title: "Litecoin"), ParameterOption("DOGE", title: "Dogecoin"),
                ParameterOption("bad\u{1B}[2J", title: "Evil\u{7}"),
            ]))
        XCTAssertTrue(h.screen.contains("LTC · Litecoin"), h.screen)
        XCTAssertFalse(h.screen.contains("\u{1B}"), "options from outside are cleaned")
        h.type("doge")
        h.press(.enter)
        XCTAssertEqual(h.field("symbol")?.line.text, "DOGE")
        // Cached for the session: opening the form again loads nothing.
        h.press(.escape, .escape)
        _ = h.takeEffects()
        h.press(.char("e"))
        XCTAssertTrue(h.optionLoads.isEmpty)
        h.select("symbol")
        h.press(.enter)
        XCTAssertTrue(h.screen.contains("LTC · Litecoin"))
        h.skipPendingWork()
    }

    func testAFailedOptionLoadSaysWhyInTheRowAndTheFixedOptionsKeepWorking() {
        let h = editHarness()
        open(h)
        h.answerOptions(.failure(FakeError("HTTP 429: rate limited")))
        h.select("symbol")
        XCTAssertTrue(h.screen.contains("⚠ more choices did no"), "in the row: \(h.screen)")
        XCTAssertTrue(
            h.screen.contains("⚠ more choices did not load: HTTP 429: rate limited"),
            "in full below: \(h.screen)")
        h.press(.enter)
        XCTAssertEqual(h.optionLoads.count, 1, "opening the picker tries again")
        h.answerOptions(.failure(FakeError("HTTP 429: rate limited")))
        XCTAssertTrue(h.screen.contains("⚠ HTTP 429: rate limited"), h.screen)
        h.press(.down, .enter)
        XCTAssertEqual(h.field("symbol")?.line.text, "ETH")
        h.skipPendingWork()
    }

    func testADynamicEnumTakesATypedValueThePatternAllows() {
        let h = editHarness()
        open(h)
        h.select("symbol")
        h.type("XRP")
        XCTAssertTrue(h.screen.contains("use “XRP”"), h.screen)
        h.press(.enter)
        XCTAssertEqual(h.field("symbol")?.line.text, "XRP")
        h.type("x")
        XCTAssertFalse(h.screen.contains("use “x”"), "the pattern does not allow it")
        h.skipPendingWork()
    }

    // MARK: - Numbers, yes/no, dates

    func testAnIntegerTakesDigitsAndStepsWithPlusMinusWithinItsRange() {
        let h = editHarness()
        open(h)
        h.select("count")
        h.type("x7")
        XCTAssertEqual(h.field("count")?.line.text, "37", "letters are not typed into a number")
        XCTAssertTrue(h.screen.contains("✗ Count must be a whole number from 1 to 9"), h.screen)
        h.press(.backspace)
        h.press(.char("+"), .char("+"))
        XCTAssertEqual(h.field("count")?.line.text, "5")
        for _ in 0..<10 { h.press(.char("+")) }
        XCTAssertEqual(h.field("count")?.line.text, "9", "never past the range")
        for _ in 0..<20 { h.press(.char("-")) }
        XCTAssertEqual(h.field("count")?.line.text, "1")
        XCTAssertTrue(h.screen.contains("1–9"), "the row shows the range")
        h.skipPendingWork()
    }

    func testSpaceSwitchesAYesNoField() {
        let h = editHarness()
        open(h)
        h.select("compact")
        XCTAssertTrue(h.screen.contains("[ ] no"))
        h.press(.char(" "))
        XCTAssertEqual(h.field("compact")?.flag, true)
        XCTAssertTrue(h.screen.contains("[x] yes"))
        h.press(.enter)
        XCTAssertEqual(h.field("compact")?.flag, false, "Enter switches too")
        h.type("y")
        XCTAssertEqual(h.field("compact")?.flag, true)
        h.press(.ctrl("s"))
        XCTAssertEqual(h.config(of: "w1")?["compact"], .bool(true))
        h.skipPendingWork()
    }

    func testADateIsTypedInISOOrMovedADayWithPlusMinus() {
        let h = editHarness()
        open(h)
        h.select("since")
        XCTAssertEqual(h.field("since")?.line.text, "2026-11-01")
        h.press(.char("+"))
        XCTAssertEqual(h.field("since")?.line.text, "2026-11-02")
        h.press(.char("-"), .char("-"))
        XCTAssertEqual(h.field("since")?.line.text, "2026-10-31")
        h.press(.ctrl("u"))
        h.type("2026-12-24")
        XCTAssertEqual(h.field("since")?.line.text, "2026-12-24", "the dashes of a date are typed, not steps")
        h.press(.backspace, .backspace)
        XCTAssertTrue(h.screen.contains("✗ Since must be a date like 2026-11-23"), h.screen)
        h.type("25")
        h.press(.ctrl("s"))
        XCTAssertEqual(h.config(of: "w1")?["since"], .date(Date(timeIntervalSince1970: 1_798_156_800)))
        h.skipPendingWork()
    }

    // MARK: - Text fields

    func testTheLineEditorKeysWorkInAField() {
        let h = editHarness()
        open(h)
        h.select("label")
        h.type("one two three")
        h.press(.ctrl("w"))
        XCTAssertEqual(h.field("label")?.line.text, "one two ")
        h.press(.ctrl("y"))
        XCTAssertEqual(h.field("label")?.line.text, "one two three")
        h.press(.alt("b"), .alt("b"))
        h.type("X")
        XCTAssertEqual(h.field("label")?.line.text, "one Xtwo three")
        h.press(.ctrl("k"))
        XCTAssertEqual(h.field("label")?.line.text, "one X")
        h.press(.ctrl("a"), .alt("f"), .alt("d"))
        XCTAssertEqual(h.field("label")?.line.text, "one")
        h.press(.home, .delete, .end, .left, .backspace)
        XCTAssertEqual(h.field("label")?.line.text, "e")
        h.press(.ctrl("u"))
        XCTAssertEqual(h.field("label")?.line.text, "e", "Ctrl-U deletes before the cursor only")
        h.press(.end, .ctrl("u"))
        h.type("日本語")
        h.press(.left)
        h.type("x")
        XCTAssertEqual(h.field("label")?.line.text, "日本x語", "wide characters are one step each")
        h.press(.ctrl("a"), .ctrl("k"))
        h.press(.char("e"), .char("\u{301}"), .char("t"))
        XCTAssertEqual(h.field("label")?.line.chars.count, 2)
        h.press(.left, .backspace)
        XCTAssertEqual(h.field("label")?.line.text, "t", "an accent typed after its letter is one character with it")
        h.skipPendingWork()
    }

    func testAPasteArrivesAsOnePieceCleanedOfControlCharacters() {
        let h = editHarness()
        open(h)
        h.select("label")
        h.press(.paste("line one\nline\u{1B}[31m two\u{7}"))
        XCTAssertEqual(h.field("label")?.line.text, "line one line two")
        XCTAssertFalse(h.state.quitting)
        h.skipPendingWork()
    }

    func testTabCompletesAFilePathFromTheListing() {
        let h = editHarness(environment: ["HOME": "/home/me"])
        open(h)
        h.select("path")
        h.type("~/sr")
        h.press(.tab)
        XCTAssertEqual(h.listings.map(\.directory), ["/home/me/"], "~ is the home directory")
        h.answerListing(
            .success([
                DirectoryEntry(name: "src", isDirectory: true),
                DirectoryEntry(name: "notes", isDirectory: false),
            ]))
        XCTAssertEqual(h.field("path")?.line.text, "~/src/", "one match: completed, a directory gets its slash")
        h.press(.tab)
        h.answerListing(
            .success([
                DirectoryEntry(name: "swiftdash", isDirectory: true),
                DirectoryEntry(name: "swift-log", isDirectory: true),
                DirectoryEntry(name: ".hidden", isDirectory: true),
            ]))
        XCTAssertEqual(h.field("path")?.line.text, "~/src/swift", "several: as far as they agree")
        XCTAssertTrue(h.screen.contains("Tab: swift-log/ swiftdash/"), h.screen)
        h.type("q")
        h.press(.tab)
        h.answerListing(.success([DirectoryEntry(name: "swiftdash", isDirectory: true)]))
        XCTAssertTrue(h.screen.contains("no file starts with “swiftq”"), h.screen)
        h.press(.tab)
        h.answerListing(.failure(EditEffects.Problem("no such directory")))
        XCTAssertTrue(h.screen.contains("cannot list ~/src/: no such directory"), h.screen)
        h.skipPendingWork()
    }

    func testFilePathCompletionReadsTheRealFileSystemThroughTheEffect() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sd-complete-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: dir.appendingPathComponent("projects"),
            withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let h = editHarness()
        open(h)
        h.select("path")
        h.type(dir.path + "/pro")
        h.press(.tab)
        await h.runEdits()
        XCTAssertEqual(h.field("path")?.line.text, dir.path + "/projects/")
    }

    // MARK: - Lists

    func testAListsItemsAreAddedRemovedAndReordered() {
        let h = editHarness()
        open(h)
        h.select("tags")
        h.press(.enter)  // an empty list starts with a new item
        h.type("alpha")
        h.press(.enter)
        h.press(.char("a"))
        h.type("beta, gamma")
        h.press(.enter)
        XCTAssertEqual(h.field("tags")?.items, ["alpha", "beta", "gamma"], "a comma makes two items")
        h.press(.char("K"))
        XCTAssertEqual(h.field("tags")?.items, ["alpha", "gamma", "beta"])
        h.press(.char("x"))
        XCTAssertEqual(h.field("tags")?.items, ["alpha", "beta"])
        h.press(.enter)  // edit the selected item in place
        h.press(.ctrl("u"))
        h.type("Bad")
        h.press(.enter)
        h.press(.escape)
        XCTAssertTrue(h.screen.contains("✗ item 'Bad' is not a lower-case word"), h.screen)
        h.press(.ctrl("s"))
        XCTAssertEqual(h.state.pane.kind, .form, "refused while an item is invalid")
        h.press(.enter, .down)
        h.press(.char("x"), .escape)
        h.press(.ctrl("s"))
        XCTAssertEqual(h.config(of: "w1")?["tags"], .list(["alpha"]))
        h.skipPendingWork()
    }

    // MARK: - Secrets

    func testSecretsAreMaskedNeverShownOrLoggedAndSayWhenTheEnvironmentSuppliesThem() {
        let h = editHarness(environment: ["PROBE_TOKEN": "from-env-value"])
        open(h)
        h.select("token")
        XCTAssertTrue(h.screen.contains("(from $PROBE_TOKEN)"), h.screen)
        XCTAssertFalse(h.screen.contains("from-env-value"))
        h.type("s3cret")
        XCTAssertTrue(h.screen.contains("••••••"), h.screen)
        XCTAssertFalse(h.screen.contains("s3cret"))
        h.press(.ctrl("s"))
        XCTAssertEqual(h.config(of: "w1")?["token"], .string("s3cret"), "kept in the configuration it belongs to")
        XCTAssertFalse(h.effectText.contains("s3cret"), "never in a log line or effect description")
        h.press(.char("e"))
        h.select("token")
        XCTAssertTrue(h.screen.contains("••••••"))
        XCTAssertFalse(h.screen.contains("s3cret"))
        h.skipPendingWork()
    }

    // MARK: - Live preview

    func testTheLivePreviewOfALocalWidgetRunsItsTimelineWithTheEditedValues() async {
        let h = editHarness()
        open(h)
        XCTAssertTrue(h.screen.contains("as on the home screen"), h.screen)
        h.select("name")
        h.press(.ctrl("u"))
        h.type("garden")
        let previews = h.previewLoads
        XCTAssertTrue(previews.allSatisfy(\.live), "a local widget previews its real timeline")
        XCTAssertEqual(previews.last?.configuration["name"], .string("garden"))
        await h.runEdits()
        XCTAssertTrue(h.screen.contains("probe alpha BTC garden"), h.screen)
        XCTAssertTrue(h.screen.contains("live preview"), h.screen)
        XCTAssertEqual(h.config(of: "w1"), WidgetConfig(), "a preview changes nothing")
    }

    func testTheLivePreviewOfANetworkWidgetIsItsSnapshot() async {
        let h = editHarness([("remote", .medium)])
        open(h)
        h.press(.ctrl("u"))
        h.type("pier")
        XCTAssertEqual(h.previewLoads.last?.live, false)
        XCTAssertEqual(h.previewLoads.last?.context.isPreview, true, "sample data, no network")
        await h.runEdits()
        XCTAssertTrue(h.screen.contains("sample"), h.screen)
        XCTAssertTrue(h.screen.contains("remote alpha BTC pier") || h.screen.contains("remote   pier"), h.screen)
    }

    // MARK: - Stacks and the detail pane

    func testAStacksFormListsItsWidgetsToEditReorderAndRemove() {
        let home = HomeConfig(tiles: [
            TileInstance(
                id: "t1", family: .medium,
                items: [
                    WidgetInstance(id: "w1", kind: "probe"), WidgetInstance(id: "w2", kind: "remote"),
                    WidgetInstance(id: "w3", kind: "stories"),
                ])
        ])
        let h = AppHarness(widgets: editWidgets, home: home, now: start)
        answerAll(h)
        h.press(.char("e"))
        XCTAssertNil(h.state.form?.instanceID, "a stack starts with its widgets")
        XCTAssertTrue(h.screen.contains("Choose the widget to edit"), h.screen)
        h.press(.down, .char("J"))
        XCTAssertEqual(h.state.tile("t1")?.items.map(\.id), ["w1", "w3", "w2"])
        XCTAssertEqual(h.writes, 1)
        h.press(.enter)
        XCTAssertEqual(h.state.form?.instanceID, "w2")
        XCTAssertTrue(h.screen.contains("3 of 3 in the stack"), h.screen)
        h.press(.ctrl("u"))
        h.type("quay")
        h.press(.ctrl("s"))
        XCTAssertEqual(h.state.pane.kind, .form, "back to the stack's list")
        XCTAssertNil(h.state.form?.instanceID)
        XCTAssertEqual(h.config(of: "w2")?["name"], .string("quay"))
        h.press(.up, .char("x"))
        XCTAssertEqual(h.state.tile("t1")?.items.map(\.id), ["w1", "w2"])
        XCTAssertFalse(h.state.scheduler.contains("w3"), "the removed widget is unregistered")
        h.press(.escape)
        XCTAssertEqual(h.state.pane.kind, .none)
        h.press(.char("u"))
        XCTAssertEqual(h.state.tile("t1")?.items.map(\.id), ["w1", "w3", "w2"], "undo brings it back")
        XCTAssertTrue(h.state.scheduler.contains("w3"))
        h.skipPendingWork()
    }

    func testEditFromADetailPaneReturnsToIt() {
        let h = editHarness([("stories", .medium), ("probe", .medium)])
        h.press(.right, .enter)
        guard case .detail = h.state.pane else { return XCTFail("no detail pane: \(h.state.pane)") }
        let pane = h.state.detailPane
        h.press(.char("e"))
        XCTAssertEqual(h.state.pane.kind, .form)
        XCTAssertEqual(h.state.form?.instanceID, "w2")
        h.press(.escape)
        XCTAssertEqual(h.state.detailPane, pane)
        h.skipPendingWork()
    }

    func testAWidgetWithNothingToSetSaysSo() {
        let h = editHarness([("dot", .small)])
        h.press(.char("e"))
        XCTAssertEqual(h.state.pane.kind, .none)
        XCTAssertTrue(h.screen.contains("Dot has nothing to set"), h.screen)
    }

    // MARK: - Whole screens

    func prepared(_ size: Size) -> AppHarness {
        let h = editHarness(size: size)
        open(h)
        h.answerOptions(.success([ParameterOption("LTC", title: "Litecoin")]))
        h.select("name")
        return h
    }

    func testScreenForm80x24() {
        let h = prepared(Size(width: 80, height: 24))
        assertSnapshot(h.screen, named: "form-80x24")
        assertSnapshot(h.styledScreen, named: "styles-form-80x24")
        // The focused field is marked in the focus role; the others are plain.
        XCTAssertEqual(h.style(of: "▸ Name")?.foreground, h.state.theme[.focus])
        XCTAssertEqual(h.style(of: "Source")?.foreground, h.state.theme[.text])
        h.skipPendingWork()
    }

    func testScreenForm200x60() {
        assertSnapshot(prepared(Size(width: 200, height: 60)).screen, named: "form-200x60")
    }

    func testScreenFormWithAnErrorAndARefusedSave80x24() {
        let h = prepared(Size(width: 80, height: 24))
        h.type("X")
        h.select("count")
        h.press(.ctrl("u"))
        h.type("12")
        h.press(.ctrl("s"))
        assertSnapshot(h.screen, named: "form-errors-80x24")
        assertSnapshot(h.styledScreen, named: "styles-form-errors-80x24")
        // A field's error (under it, and in full at the bottom) and the refused save are drawn
        // in the negative role.
        XCTAssertEqual(h.style(of: "✗ must be lower-case")?.foreground, h.state.theme[.negative])
        XCTAssertEqual(h.style(of: "✗ Name must be lower-case")?.foreground, h.state.theme[.negative])
        XCTAssertEqual(h.style(of: "✗ Not saved")?.foreground, h.state.theme[.negative])
    }

    func testScreenFormPicker80x24() {
        let h = prepared(Size(width: 80, height: 24))
        h.select("symbol")
        h.press(.enter)
        assertSnapshot(h.screen, named: "form-picker-80x24")
    }

    func testScreenStackForm80x24() {
        let home = HomeConfig(tiles: [
            TileInstance(
                id: "t1", family: .medium,
                items: [
                    WidgetInstance(id: "w1", kind: "probe", config: WidgetConfig(["name": .string("desk")])),
                    WidgetInstance(id: "w2", kind: "remote"),
                ])
        ])
        let h = AppHarness(widgets: editWidgets, home: home, now: start)
        answerAll(h)
        h.press(.char("e"))
        assertSnapshot(h.screen, named: "form-stack-80x24")
    }

    func testScreenFormList200x60() {
        let h = prepared(Size(width: 200, height: 60))
        h.select("tags")
        h.press(.enter)
        h.type("alpha")
        h.press(.enter, .char("a"))
        h.type("bet")
        assertSnapshot(h.screen, named: "form-list-200x60")
        h.skipPendingWork()
    }
}
