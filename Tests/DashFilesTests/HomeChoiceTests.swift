import XCTest
import Foundation
import DashHome
import DashHomeFiles

/// Named homes (decision 47): `SWIFTDASH_HOME` chooses the file, the cache and state folders and
/// the control socket of every `AppPaths` of the process.
final class HomeChoiceTests: XCTestCase {
    let base = [
        "HOME": "/h", "XDG_CONFIG_HOME": "/c", "XDG_CACHE_HOME": "/k", "XDG_STATE_HOME": "/s",
        "XDG_RUNTIME_DIR": "/r",
    ]

    func paths(_ home: String?) -> AppPaths {
        var env = base
        env[HomeChoice.variable] = home
        return AppPaths(environment: env)
    }

    func testTheDefaultHomeKeepsItsFileFoldersAndSocket() {
        for value in [nil, "", "default"] {
            let p = paths(value)
            XCTAssertEqual(p.home, .standard)
            XCTAssertEqual(p.homeFile.path, "/c/swiftdash/home.yaml")
            XCTAssertEqual(p.cache.path, "/k/swiftdash")
            XCTAssertEqual(p.state.path, "/s/swiftdash")
            XCTAssertEqual(p.socket, paths(nil).socket)
        }
    }

    func testANamedHomeIsHomeNameYamlBesideHomeYamlWithItsOwnCacheStateAndSocket() {
        let work = paths("work")
        XCTAssertEqual(work.home, .named("work"))
        XCTAssertEqual(work.homeFile.path, "/c/swiftdash/home-work.yaml")
        XCTAssertEqual(work.cache.path, "/k/swiftdash/homes/work")
        XCTAssertEqual(work.state.path, "/s/swiftdash/homes/work")
        XCTAssertEqual(work.config.path, "/c/swiftdash", "themes and widgets stay shared")
        XCTAssertNotEqual(work.socket, paths(nil).socket, "two homes run at once")
        XCTAssertNotEqual(work.socket, paths("play").socket)
        XCTAssertEqual(work.socket.deletingLastPathComponent().path, "/r/swiftdash")
    }

    func testAFileHomeUsesThatFileAndAFolderOfItsOwn() {
        let p = paths("/tmp/x/dash.yaml")
        XCTAssertEqual(p.home, .file("/tmp/x/dash.yaml"))
        XCTAssertEqual(p.homeFile.path, "/tmp/x/dash.yaml")
        XCTAssertTrue(p.cache.path.hasPrefix("/k/swiftdash/homes/file-"), p.cache.path)
        XCTAssertNotEqual(p.cache, paths("/tmp/y/dash.yaml").cache)
        XCTAssertNotEqual(p.socket, paths(nil).socket)
    }

    func testNamesThatCannotNameAHome() {
        for bad in ["../x", "a/b", "-x", ".hidden", "", String(repeating: "a", count: 41), "a b", "wörk", "x\u{1B}"] {
            XCTAssertNotNil(HomeChoice.problem(name: bad), bad)
            XCTAssertEqual(paths(bad).home, bad.hasPrefix("/") ? .file(bad) : .standard, bad)
        }
        for good in ["work", "w2", "my_home.v2", "A-b"] { XCTAssertNil(HomeChoice.problem(name: good), good) }
    }

    func testTheHomesOfAFolderAreItsHomeNameFiles() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("swiftdash-homes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        XCTAssertEqual(HomeChoice.listing(in: dir), "default (home.yaml, not written yet)")
        for f in [
            "home.yaml", "home-work.yaml", "home-play.yaml", "home-.yaml", "home-a b.yaml", "home-x.yml", "notes.yaml",
        ] {
            try Data("tiles: []\n".utf8).write(to: dir.appendingPathComponent(f))
        }
        XCTAssertEqual(HomeChoice.names(in: dir), ["play", "work"])
        XCTAssertEqual(HomeChoice.listing(in: dir), "default (home.yaml), play, work")
    }
}
