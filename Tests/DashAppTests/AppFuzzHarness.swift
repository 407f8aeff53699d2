// One input through one of DashApp's parsers of outside input — home.yaml, a theme, a
// control-socket connection — and what must hold afterwards. Used by the bounded fuzz runs
// inside `swift test` (ConfigFuzzTests, ControlProtocolFuzzTests) and, compiled with
// `-D FUZZING` into the DashApp module, by the libFuzzer targets `home`, `theme` and
// `control` of Tests/fuzz/run.sh (see docs/fuzzing.md). Keep it free of test-only helpers.
import Foundation
import DashCore
import DashWidgets
import DashRender
import DashBuiltinWidgets
#if FUZZING
    @testable import DashHome
#else
    @testable import DashApp
    @testable import DashHome
    @testable import DashRuntime
#endif

/// DashApp's parsers of input from outside the process.
enum AppFuzzTarget: String, CaseIterable, Sendable {
    /// `home.yaml` bytes through `HomeConfig.parse(data:)` (size, UTF-8, YAML limits,
    /// validation), `HomeConfig.problems` (`swiftdash config check`), and a first frame of
    /// every home screen that is accepted.
    case home
    /// Theme file bytes through `ThemeLoader.parse(data:)`, and a first frame in every
    /// theme that is accepted.
    case theme
    /// The bytes one client sends to the control socket, through the server's framing
    /// (`ControlProtocol.frame`) and the running app's answer (`ControlProtocol.respond`).
    case control
}

enum AppFuzzHarness {
    /// What one input did: accepted or refused, and what is wrong with that (empty if nothing).
    struct Outcome {
        var accepted = false
        /// For a refusal without a line: the message up to its first `:` or `;`.
        var lineless: String?
        /// The refusal or the answer, as the user reads it.
        var message: String?
        var problems: [String] = []
    }

    static let now = Date(timeIntervalSince1970: 1_795_424_400)
    static let bundle = BuiltinWidgets.bundle
    /// Refusals that have no line to name.
    static let linelessMessages = ["the file is empty", "the file has only comments"]
    /// The longest error message after `file:line: `; a longer one is probably quoting the file.
    static let maxMessage = 400
    /// The home screen the control target's `push` and `reload` lines address.
    static let controlHome = HomeConfig(tiles: [
        TileInstance(id: "t1", family: .small, items: [WidgetInstance(id: "w1", kind: "note")]),
        TileInstance(id: "t2", family: .small, items: [WidgetInstance(id: "w2", kind: "clock")]),
    ])

    static func run(_ target: AppFuzzTarget, _ data: Data) -> [String] { outcome(target, data).problems }

    static func outcome(_ target: AppFuzzTarget, _ data: Data) -> Outcome {
        switch target {
        case .home: return home(data)
        case .theme: return theme(data)
        case .control: return control(data)
        }
    }

    static func home(_ data: Data, file: String = "home.yaml") -> Outcome {
        var o = Outcome()
        let parsed: HomeConfig?
        do {
            parsed = try HomeConfig.parse(data: data, file: file, bundle: bundle)
        } catch {
            parsed = nil
            o.message = "\(error)"
            (o.lineless, o.problems) = refusal(error, file: file, data: data)
        }
        if let home = parsed {
            o.accepted = true
            o.problems += accepted(home)
            o.problems += frame(home: home, theme: .dark)
        }
        // `swiftdash config check`: every problem, through the same code as `parse`.
        if let text = try? YAMLGuard.text(data, file: file, maxBytes: ConfigLimits.maxHomeBytes, what: "home.yaml") {
            let problems = HomeConfig.problems(yaml: text, file: file, bundle: bundle)
            if o.accepted && !problems.isEmpty {
                o.problems.append("config check finds \(problems.count) problems in an accepted file")
            }
            if !o.accepted && problems.isEmpty { o.problems.append("config check finds nothing in a refused file") }
            for p in problems { o.problems += refusal(p, file: file, data: data).problems.map { "check: " + $0 } }
        }
        return o
    }

    /// What an accepted home screen must respect (ConfigLimits).
    static func accepted(_ home: HomeConfig) -> [String] {
        var p: [String] = []
        if home.tiles.count > ConfigLimits.maxTiles { p.append("\(home.tiles.count) tiles accepted") }
        var ids: Set<String> = []
        for t in home.tiles {
            if t.items.isEmpty || t.items.count > ConfigLimits.maxStackItems {
                p.append("a tile of \(t.items.count) widgets accepted")
            }
            if !ids.insert(t.id).inserted { p.append("tile id \(t.id) twice") }
            for i in t.items {
                if !ids.insert(i.id).inserted { p.append("instance id \(i.id) twice") }
                guard let w = bundle[i.kind] else {
                    p.append("unknown kind accepted: \(i.kind.debugDescription)")
                    continue
                }
                if !w.supports(t.family) { p.append("\(i.kind) accepted in \(t.family.rawValue)") }
            }
        }
        if let theme = home.theme { p += text(theme, "theme name", limit: ConfigLimits.maxValueCharacters) }
        return p
    }

    static func theme(_ data: Data, file: String = "t.yaml") -> Outcome {
        var o = Outcome()
        do {
            let theme = try ThemeLoader.parse(data: data, file: file)
            o.accepted = true
            for role in ThemeRole.allCases where theme.colors[role] == nil {
                o.problems.append("no colour for \(role)")
            }
            o.problems += text(theme.name, "theme name", limit: ConfigLimits.maxThemeBytes)
            o.problems += frame(home: HomeConfig.defaultHome(bundle: bundle), theme: theme)
        } catch {
            o.message = "\(error)"
            (o.lineless, o.problems) = refusal(error, file: file, data: data)
        }
        return o
    }

    /// The bytes one client sends, read in chunks of 256 to 65,536 bytes (the first byte
    /// chooses), then the client closes: what the server answers.
    static func control(_ data: Data) -> Outcome {
        var o = Outcome()
        let bytes = [UInt8](data)
        let chunk = 256 * (1 + Int(bytes.first ?? 0))
        var buffer: [UInt8] = []
        var framed: ControlProtocol.Framed?
        var offset = 0
        repeat {
            let end = min(bytes.count, offset + chunk)
            buffer += bytes[offset..<end]
            offset = end
            framed = ControlProtocol.frame(buffer, ended: offset == bytes.count)
        } while framed == nil && offset < bytes.count
        switch framed {
        case nil:
            o.problems.append("no answer after the client closed")
        case .tooLong:
            o.accepted = false
        case .line(let line):
            if line.contains("\n") { o.problems.append("a line with a line break: \(line.debugDescription)") }
            let (answer, msg) = ControlProtocol.respond(
                to: line, home: controlHome, bundle: bundle, kinds: Set(bundle.kinds))
            o.message = answer
            o.accepted = !answer.hasPrefix("error")
            o.problems += self.answer(answer)
            if case .pushed(let target, _) = msg {
                if App.pushTargets(target, home: controlHome, bundle: bundle).isEmpty {
                    o.problems.append("a push for \(target.debugDescription) reaches no widget")
                }
            }
            if let msg {
                // What the running app does with it: the next frame must draw, clean.
                var state = self.state(home: controlHome, theme: .dark)
                _ = App.update(&state, msg)
                o.problems += frame(state)
            }
        }
        return o
    }

    /// One answer line the client prints: short, one line, nothing a terminal acts on.
    static func answer(_ s: String) -> [String] {
        var p = text(s, "answer", limit: 1_000)
        if s.isEmpty { p.append("an empty answer") }
        return p
    }

    /// Checks one refusal: a `ConfigFileError` for `file`, with a line in range unless the
    /// message is one that has none, short, clean.
    static func refusal(_ error: Error, file: String, data: Data) -> (lineless: String?, problems: [String]) {
        guard let e = error as? ConfigFileError else { return (nil, ["not a ConfigFileError: \(error)"]) }
        let description = e.description
        var p: [String] = []
        if !description.hasPrefix(file + ":") { p.append("names another file: \(description.prefix(200))") }
        if e.message.count > maxMessage { p.append("a long message (the file?): \(description.prefix(200))") }
        p += text(description, "message", limit: .max)
        let lines = yamlLines(data)
        guard let line = e.line else {
            let kind = String(e.message.prefix { $0 != ":" && $0 != ";" })
            if !linelessMessages.contains(kind) { p.append("no line in \(description.prefix(200))") }
            return (kind, p)
        }
        if !(1...lines + 1).contains(line) { p.append("line \(line) of \(lines): \(description.prefix(200))") }
        if !description.hasPrefix("\(file):\(line): ") { p.append("not file:line: \(description.prefix(200))") }
        return (nil, p)
    }

    /// Lines as YAML counts them: LF, CR LF, CR, NEL, LS and PS each end one.
    static func yamlLines(_ data: Data) -> Int {
        let b = [UInt8](data)
        var n = 1
        for i in b.indices {
            switch b[i] {
            case 0x0A: n += 1
            case 0x0D where i + 1 == b.count || b[i + 1] != 0x0A: n += 1
            case 0x85 where i > 0 && b[i - 1] == 0xC2: n += 1
            case 0xA8, 0xA9: if i > 1 && b[i - 2] == 0xE2 && b[i - 1] == 0x80 { n += 1 }
            default: break
            }
        }
        return n
    }

    /// A home screen as it starts on a 100×30 screen, nothing loaded yet.
    static func state(home: HomeConfig, theme: Theme) -> AppState {
        AppState(
            bundle: bundle, home: home, screen: Size(width: 100, height: 30), theme: theme,
            alternateTheme: theme.isDark ? .light : .dark, timeZone: TimeZone(identifier: "UTC")!, now: now)
    }

    /// The first frame of `home` in `theme`: it builds, and holds no control character.
    static func frame(home: HomeConfig, theme: Theme) -> [String] { frame(state(home: home, theme: theme)) }

    static func frame(_ state: AppState) -> [String] {
        let buffer = AppView.render(state).buffer
        for y in 0..<buffer.height {
            let p = text(buffer.rowText(y), "screen row \(y)", limit: 10 * buffer.width)
            if !p.isEmpty { return p }
        }
        return []
    }

    /// Text shown to the user: at most `limit` characters and nothing a terminal would act on.
    static func text(_ s: String, _ what: String, limit: Int) -> [String] {
        var p: [String] = []
        if s.count > limit { p.append("\(what) is \(s.count) characters") }
        for u in s.unicodeScalars {
            let v = u.value
            if v < 0x20 || (0x7F...0x9F).contains(v) || (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v)
                || v == 0x200E || v == 0x200F
            {
                p.append("\(what) holds U+\(String(v, radix: 16, uppercase: true)): \(s.prefix(200).debugDescription)")
                break
            }
        }
        return p
    }
}
