import XCTest
import Foundation
import DashCore
import DashWidgets
import DashScheduler
import DashRender
import DashTestSupport
import DashBuiltinWidgets
@testable import DashApp

/// What a reviewer saw on the real screen, each reproduced and pinned as a whole screen.
final class ScreenReviewTests: XCTestCase {
    let at = Date(timeIntervalSince1970: 1_795_426_200)  // 2026-11-23 09:30 UTC

    /// The default home screen as `swiftdash render --default-home` draws it (sample data).
    func defaultHome(_ size: Size) async -> String {
        var state = AppState(
            bundle: BuiltinWidgets.bundle, home: HomeConfig.defaultHome(bundle: BuiltinWidgets.bundle), screen: size,
            theme: .dark, alternateTheme: .light, timeZone: TimeZone(identifier: "UTC")!, now: at)
        state.focusedTile = nil
        await OneShot.load(&state, source: .sample)
        return AppView.render(state).buffer.textDump
    }

    /// At 200x60 the default home put all six tiles in one band along the top and left three
    /// quarters of the screen empty; they now wrap into rows, as a centred block.
    func testDefaultHomeWrapsIntoRowsAt200x60() async {
        let screen = await defaultHome(Size(width: 200, height: 60))
        let rows = screen.split(separator: "\n", omittingEmptySubsequences: false)
        let tops = rows.enumerated().filter { $0.element.contains("╭─") }.map(\.offset)
        XCTAssertEqual(Set(tops).count, 3, "three rows of tiles:\n\(screen)")
        assertSnapshot(screen, named: "default-home-200x60")
    }

    /// 160x48 had the same fault (one band, two thirds empty); 80x24 is unchanged.
    func testDefaultHomeAt160x48And80x24() async {
        assertSnapshot(await defaultHome(Size(width: 160, height: 48)), named: "default-home-160x48")
        assertSnapshot(await defaultHome(Size(width: 80, height: 24)), named: "default-home-80x24")
    }
}
