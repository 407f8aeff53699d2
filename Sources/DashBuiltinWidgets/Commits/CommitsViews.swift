import Foundation
import DashWidgets

enum CommitsViews {
    static func tile(_ entry: CommitsEntry, _ ctx: TimelineContext) -> TileView {
        let view: TileView
        if let failure = entry.failure {
            view = failureView(
                ctx.family == .small ? entry.repository : "\(entry.repository) ⎇ \(entry.branch)", failure)
        } else if let first = entry.commits.first {
            switch ctx.family {
            case .small: view = small(first)
            case .medium: view = medium(first, entry)
            case .large, .extraLarge: view = large(entry)
            }
        } else {
            view = failureView(entry.repository, "no commits on \(entry.branch)")
        }
        return entry.isPlaceholder ? view.redacted() : view
    }

    static func age(_ c: CommitInfo) -> TileView {
        if let d = c.date { return Text(d, style: .relative).font(.caption) }
        return Text("").font(.caption)
    }

    static func small(_ c: CommitInfo) -> TileView {
        VStack {
            Text(c.subject).font(.headline).lineLimit(3)
            Spacer()
            Text(c.author).font(.caption).foregroundStyle(.accent)
            age(c)
        }.widgetURL(CommitsWidget.link(c))
    }

    static func header(_ entry: CommitsEntry) -> TileView {
        titleRow(entry.repository, "⎇ \(entry.branch)").link(DeepLink.make(kind: CommitsWidget.kind, "log"))
    }

    static func byline(_ c: CommitInfo) -> TileView {
        HStack {
            Text(c.shortHash).font(.monospacedDigit).foregroundStyle(.warning)
            Text(c.author).font(.caption)
            Spacer()
            age(c)
        }.lineLimit(1)
    }

    static func medium(_ c: CommitInfo, _ entry: CommitsEntry) -> TileView {
        VStack {
            header(entry)
            VStack {
                Text(c.subject).font(.headline).lineLimit(2)
                if let more = body(c).split(separator: "\n").first { Text(String(more)).font(.caption).lineLimit(1) }
                Spacer()
                byline(c)
            }.link(CommitsWidget.link(c))
        }
    }

    /// The message after its subject line (blank lines before the subject skipped too).
    static func body(_ c: CommitInfo) -> String {
        var rest = Substring(c.message)
        while let nl = rest.firstIndex(of: "\n") {
            let line = rest[..<nl]
            rest = rest[rest.index(after: nl)...]
            guard TextSanitizer.singleLine(String(line)).isEmpty else {
                return rest.trimmingCharacters(in: .whitespacesAndNewlines)
            }
        }
        return ""
    }

    static func large(_ entry: CommitsEntry) -> TileView {
        if entry.commits.count == 1, let c = entry.commits.first {
            // An entry loaded for a smaller family (one commit): show all of its message.
            let rest = body(c)
            return VStack {
                header(entry)
                Divider()
                VStack {
                    Text(c.subject).font(.headline).lineLimit(2)
                    byline(c)
                    if !rest.isEmpty { Text(rest).font(.caption).lineLimit(8) }
                }.link(CommitsWidget.link(c))
            }
        }
        return VStack {
            header(entry)
            Divider()
            for c in entry.commits.prefix(5) {
                VStack {
                    Text(c.subject).lineLimit(1)
                    byline(c)
                }.link(CommitsWidget.link(c))
            }
        }
    }

    static func detail(_ link: DeepLink, _ entry: CommitsEntry?, _ ctx: TimelineContext) -> TileView {
        guard let entry else {
            return VStack {
                Text("Latest commit").font(.title)
                Text("No data loaded yet").font(.caption)
            }
        }
        if let failure = entry.failure { return failureView("\(entry.repository) ⎇ \(entry.branch)", failure) }
        if link.path.first == "log" { return logPane(entry) }
        guard let c = entry.commit(link.path.first ?? "") ?? (link.path.isEmpty ? entry.commits.first : nil) else {
            return VStack {
                Text(entry.repository).font(.title)
                Text("This commit is no longer among the newest of \(entry.branch)").font(.caption)
            }
        }
        let rest = body(c)
        let fileRows = max(1, ctx.size.height - 12)
        return VStack {
            Text(c.subject).font(.title).lineLimit(2)
            HStack {
                Text(c.hash).font(.monospacedDigit).foregroundStyle(.warning)
            }
            HStack {
                Text(c.author).foregroundStyle(.accent)
                if let d = c.date {
                    Text("·").font(.caption)
                    Text(d, style: .date).font(.caption)
                    Text(d, style: .time(seconds: false)).font(.caption)
                    Text("·").font(.caption)
                    Text(d, style: .relative).font(.caption)
                }
            }
            Text("\(entry.repository) ⎇ \(entry.branch)").font(.caption)
            Divider()
            // The whole message: a pane that gets longer than the screen scrolls.
            if !rest.isEmpty { Text(rest) }
            if entry.isLocal {
                Divider()
                Text(
                    c.files.isEmpty
                        ? "No files changed (merge or empty commit)"
                        : "Files changed (\(c.files.count + c.moreFiles))"
                ).font(.headline)
                for f in c.files.prefix(fileRows) { Text(f).lineLimit(1) }
                if c.files.count + c.moreFiles > fileRows, !c.files.isEmpty {
                    Text("… and \(c.files.count + c.moreFiles - min(fileRows, c.files.count)) more").font(.caption)
                }
            } else if let url = c.url, !url.isEmpty {
                Spacer()
                Text(url).foregroundStyle(.accent).link(url)
            }
        }
    }

    /// The commits the last update brought, newest first, each a link to its own pane.
    static func logPane(_ entry: CommitsEntry) -> TileView {
        VStack {
            titleRow("\(entry.repository) ⎇ \(entry.branch)", entry.isLocal ? "local" : "")
            Divider()
            for c in entry.commits {
                VStack {
                    Text(c.subject).font(.headline).lineLimit(1)
                    HStack {
                        Text(c.shortHash).font(.monospacedDigit).foregroundStyle(.warning)
                        Text(c.author).font(.caption)
                        if !c.files.isEmpty {
                            let n = c.files.count + c.moreFiles
                            Text(n == 1 ? "1 file" : "\(n) files").font(.caption)
                        }
                        Spacer()
                        age(c)
                    }
                }.link(CommitsWidget.link(c))
            }
        }
    }
}
