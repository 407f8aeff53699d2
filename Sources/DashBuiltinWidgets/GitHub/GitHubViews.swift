import Foundation
import DashWidgets

enum GitHubViews {
    static func checkColor(_ c: GitHubChecks) -> SemanticColor {
        switch c {
        case .passing: return .positive
        case .failing: return .negative
        case .pending: return .warning
        case .none, .unknown: return .secondary
        }
    }

    static func link(_ section: String, _ p: GitHubPull? = nil) -> String {
        DeepLink.make(kind: GitHubWidget.kind, p.map { "\(section)/\($0.repository)/\($0.number)" } ?? section)
    }

    static func pullRow(_ p: GitHubPull, section: String, checks: Bool) -> TileView {
        HStack {
            if checks { Text(p.checks.symbol).foregroundStyle(checkColor(p.checks)) }
            Text("#\(p.number)").font(.monospacedDigit).foregroundStyle(.warning)
            Text(p.title).lineLimit(1)
        }.lineLimit(1).link(link(section, p))
    }

    static func counts(_ e: GitHubEntry) -> TileView {
        HStack {
            Text("\(e.reviewCount) review").foregroundStyle(e.reviewCount > 0 ? .accent : .secondary)
            Text("· \(e.mineCount) mine").font(.caption)
            Text("· \(e.notes.count) unread").font(.caption)
        }.lineLimit(1)
    }

    static func tile(_ entry: GitHubEntry, _ ctx: TimelineContext) -> TileView {
        let view: TileView
        if let failure = entry.failure {
            view = tileFailureView("GitHub", failure, ctx).widgetURL(link("all"))
        } else {
            switch ctx.family {
            case .small:
                let failing = entry.mine.filter { $0.checks == .failing }.count
                view = VStack {
                    Text("GitHub").font(.headline).foregroundStyle(.accent)
                    Text("\(entry.reviewCount) to review").foregroundStyle(entry.reviewCount > 0 ? .warning : .primary)
                    Text("\(entry.mineCount) mine" + (failing > 0 ? ", \(failing) ✗" : ""))
                        .foregroundStyle(failing > 0 ? .negative : .primary)
                    Text("\(entry.notes.count) unread").font(.caption)
                }.widgetURL(link("all"))
            case .medium:
                view = VStack {
                    titleRow("GitHub", entry.problems.isEmpty ? "" : "partial")
                    counts(entry)
                    for p in entry.reviews.prefix(2) { pullRow(p, section: "review", checks: false) }
                    for p in entry.mine.prefix(max(0, 3 - min(2, entry.reviews.count))) {
                        pullRow(p, section: "mine", checks: true)
                    }
                }
            case .large, .extraLarge:
                view = VStack {
                    titleRow("GitHub", entry.host)
                    if !entry.reviews.isEmpty || entry.reviewCount > 0 {
                        Text("To review (\(entry.reviewCount))").font(.headline).link(link("review"))
                        for p in entry.reviews.prefix(3) { pullRow(p, section: "review", checks: false) }
                    }
                    Text("Mine (\(entry.mineCount))").font(.headline).link(link("mine"))
                    for p in entry.mine.prefix(3) { pullRow(p, section: "mine", checks: true) }
                    Text("Unread (\(entry.notes.count))").font(.headline).link(link("notifications"))
                    for n in entry.notes.prefix(3) { Text("\(n.repository): \(n.title)").lineLimit(1) }
                    for p in entry.problems { Text(p).font(.caption).foregroundStyle(.warning).lineLimit(1) }
                }
            }
        }
        return entry.isPlaceholder ? view.redacted() : view
    }

    static func detail(_ link: DeepLink, _ entry: GitHubEntry?, _ ctx: TimelineContext) -> TileView {
        guard let entry else {
            return notLoadedView("GitHub")
        }
        if let f = entry.failure { return tileFailureView("GitHub", f, ctx) }
        let section = link.path.first ?? "all"
        // swiftdash://github/mine/owner/repo/12: that pull request.
        if link.path.count >= 4, let n = Int(link.path[3]) {
            let repo = "\(link.path[1])/\(link.path[2])"
            if let p = (entry.reviews + entry.mine).first(where: { $0.repository == repo && $0.number == n }) {
                return VStack {
                    Text(p.title).font(.title).lineLimit(3)
                    Text("\(p.reference) by \(p.author)" + (p.draft ? " (draft)" : "")).font(.caption)
                    if let u = p.updated {
                        HStack {
                            Text("updated").font(.caption)
                            Text(u, style: .relative).font(.caption)
                        }
                    }
                    if section == "mine" {
                        Text("checks: \(p.checks.symbol) \(p.checks.rawValue)").foregroundStyle(checkColor(p.checks))
                    }
                    Spacer()
                    if !p.url.isEmpty { Text(p.url).foregroundStyle(.accent).link(p.url) }
                }
            }
            return Text("\(repo)#\(n) is no longer in the list").font(.caption)
        }
        return VStack {
            Text("GitHub").font(.title)
            if section == "all" || section == "review" {
                Text("Waiting for my review (\(entry.reviewCount))").font(.headline)
                for p in entry.reviews { pullRow(p, section: "review", checks: false) }
            }
            if section == "all" || section == "mine" {
                Text("My open pull requests (\(entry.mineCount))").font(.headline)
                for p in entry.mine { pullRow(p, section: "mine", checks: true) }
            }
            if section == "all" || section == "notifications" {
                Text("Unread notifications (\(entry.notes.count))").font(.headline)
                for n in entry.notes {
                    Text("\(n.repository) · \(n.type) · \(n.reason)").font(.caption).lineLimit(1)
                    Text(n.title).lineLimit(1)
                }
            }
            for p in entry.problems { Text(p).foregroundStyle(.warning) }
        }
    }
}
