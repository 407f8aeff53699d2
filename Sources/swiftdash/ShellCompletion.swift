import Foundation
import ArgumentParser
import DashWidgets
import DashApp
import DashHome
import DashHomeFiles
import DashRuntime

/// The candidates the shells' completion scripts ask swiftdash for (`swiftdash ---completion …`,
/// ArgumentParser's custom completion): widget kinds and the ids `swiftdash config check` prints.
/// They come back as an exit-0 message that is printed unaltered, and part of them comes from
/// outside (an extension's kind, the ids file beside home.yaml), so each candidate is checked
/// here: one that is not a plain word (letters, digits, `-`, `_`, `.`) is left out rather than
/// handed to a shell.
enum ShellCompletion {
    /// The plain words of `candidates` that start with `prefix`, sorted, each once.
    static func words(_ candidates: [String], prefix: String) -> [String] {
        Array(Set(candidates.filter { $0.hasPrefix(prefix) && isPlainWord($0) })).sorted()
    }

    static func isPlainWord(_ word: String) -> Bool {
        !word.isEmpty && word.count <= 64
            && word.unicodeScalars.allSatisfy {
                $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "-_.".unicodeScalars.contains($0))
            }
    }

    /// The home screen as the other commands read it; the built-in one when home.yaml is missing
    /// or broken (completion says nothing about a broken file: `config check` does).
    static func currentHome() -> HomeConfig {
        let file = HomeFile(url: AppPaths(environment: processEnvironment).homeFile, bundle: bundle)
        return (try? file.load().home) ?? HomeConfig.defaultHome(bundle: bundle)
    }

    /// Every widget kind of the bundle (built-in and extensions).
    static let kinds = CompletionKind.custom { _, _, prefix in words(bundle.kinds, prefix: prefix) }

    /// The widget ids (w3) and the ids of tiles that hold one widget (t2): what `config set` takes.
    static let settableIDs = CompletionKind.custom { _, _, prefix in
        let home = currentHome()
        let single = home.tiles.filter { $0.items.count == 1 }.map(\.id)
        return words(home.allInstances.map(\.id) + single, prefix: prefix)
    }

    /// Every tile and widget id: what `remove` takes.
    static let tileAndWidgetIDs = CompletionKind.custom { _, _, prefix in
        let home = currentHome()
        return words(home.allInstances.map(\.id) + home.tiles.map(\.id), prefix: prefix)
    }

    /// The kinds and widget ids: what `reload` and `push` take.
    static let kindsAndWidgetIDs = CompletionKind.custom { _, _, prefix in
        words(bundle.kinds + currentHome().allInstances.map(\.id), prefix: prefix)
    }

    /// The named homes (`--home`): `home-NAME.yaml` beside home.yaml, and `default`.
    static let homeNames = CompletionKind.custom { _, _, prefix in
        words(["default"] + HomeChoice.names(in: AppPaths(environment: processEnvironment).config), prefix: prefix)
    }

    /// The families of a widget's sizes.
    static let families = CompletionKind.list(["small", "medium", "large", "extraLarge"])
}
