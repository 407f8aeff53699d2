import XCTest

@testable import SwiftdashKit

/// The line a kind's crash becomes (decision 60): the runtime's message and the first backtrace
/// frame in the widget's own code, whatever kind of build printed them.
final class CrashReportTests: XCTestCase {
    let sigill: Int32 = 4

    func report(_ text: String) -> String { CrashReport(stderr: text, status: sigill).line }

    func testADebugBuildsIndexOutOfRangeNamesTheWidgetsLineNotTheStandardLibrarys() {
        let text = """
            Swift/ContiguousArrayBuffer.swift:690: Fatal error: Index out of range

            *** Program crashed: Illegal instruction at 0x00007f0000000001 ***
              0      0x00007f0000000001 _assertionFailure(_:_:file:line:flags:) + 300 in libswiftCore.so
              1 [ra] 0x0000550000000002 specialized Array.subscript.getter + 80 in Pantry
              2 [ra] 0x0000550000000003 closure #1 in ListView.body.getter + 47 in Pantry at /home/me/Pantry/Sources/Pantry/ListView.swift:31:18
            """
        XCTAssertEqual(report(text), "crashed: ListView.swift:31: Fatal error: Index out of range")
    }

    func testAFatalErrorWithoutABacktraceKeepsItsOwnPlace() {
        XCTAssertEqual(
            report("Pantry/Store.swift:12: Fatal error: no shelf named pantry\n"),
            "crashed: Store.swift:12: Fatal error: no shelf named pantry")
    }

    func testAReleaseBuildsTrapSaysItIsOneAndWhere() {
        let text = """
            *** Program crashed: Illegal instruction at 0x0000550000000004 ***
              0 [inlined] [system] 0x0000550000000004 Swift runtime failure: Index out of range in Pantry at //<compiler-generated>
              1                    0x0000550000000004 ListView.body.getter + 90 in Pantry at /home/me/Pantry/Sources/Pantry/ListView.swift:31:18
            """
        XCTAssertEqual(report(text), "crashed: ListView.swift:31: Illegal instruction (a trap; a debug build says why)")
        let unwrapped = """
            *** Swift runtime failure: Unexpectedly found nil while unwrapping an Optional value ***
              2                    0x0000550000000005 Provider.getTimeline(in:completion:) + 12 in Pantry at /home/me/Pantry/Sources/Pantry/Provider.swift:40:9
            """
        XCTAssertEqual(
            report(unwrapped),
            "crashed: Provider.swift:40: Fatal error: Unexpectedly found nil while unwrapping an Optional value")
    }

    func testFramesInSwiftdashKitAreNotTheWidgets() {
        let sdk = CrashReport.sdkSources + "Extension/Render.swift"
        let text = """
            Fatal error: the provider implements no getTimeline(in:completion:)
              3 [ra] 0x0000550000000006 Render.entry(_:_:_:) + 10 in Pantry at \(sdk):60:5
              4 [ra] 0x0000550000000007 Provider.placeholder(in:) + 10 in Pantry at /home/me/Pantry/Sources/Pantry/Provider.swift:8:3
            """
        XCTAssertTrue(report(text).hasPrefix("crashed: Provider.swift:8: "), report(text))
    }

    func testAProcessThatSaidNothingSaysHowItEnded() {
        XCTAssertEqual(CrashReport(stderr: "", status: 9).line, "crashed: killed by signal 9")
        XCTAssertEqual(CrashReport(stderr: "", status: 3 << 8).line, "crashed: exited with status 3 in the middle of a request")
    }
}
