import Foundation
import DashWidgets

enum NewsViews {
    static func tile(_ entry: NewsEntry, _ ctx: TimelineContext) -> TileView {
        let n = NewsWidget.count(for: ctx.family, override: entry.count)
        let items = Array(entry.items.prefix(n))
        let view: TileView
        if items.isEmpty {
            view = VStack {
                header(entry.sourceName)
                Text("No stories right now").font(.caption)
            }
        } else if ctx.family == .small {
            view = small(items[0])
        } else {
            view = list(entry, items, divider: ctx.family != .medium)
        }
        return entry.isPlaceholder ? view.redacted() : view
    }

    /// The feed's name on one line (cut with "…" when long, so it never pushes a story out
    /// of the tile) and a caption on the right.
    static func header(_ title: String, _ trailing: String = "") -> TileView {
        HStack {
            Text(title).font(.headline).foregroundStyle(.accent).lineLimit(1)
            Spacer()
            if !trailing.isEmpty { Text(trailing).font(.caption) }
        }
    }

    /// The story's source, or its site when every story comes from the same feed.
    static func origin(_ item: NewsItem, _ entry: NewsEntry) -> String {
        guard item.source == entry.sourceName, let host = URLComponents(string: item.url)?.host else {
            return item.source
        }
        return host.hasPrefix("www.") ? String(host.dropFirst(4)) : host
    }

    static func byline(_ item: NewsItem, _ entry: NewsEntry) -> TileView {
        HStack {
            Text(origin(item, entry)).font(.caption).lineLimit(1)
            Spacer()
            if let d = item.published { Text(d, style: .relative).font(.caption) }
        }
    }

    static func small(_ item: NewsItem) -> TileView {
        VStack {
            Text(item.title).font(.headline).lineLimit(3)
            Spacer()
            Text(item.source).font(.caption).foregroundStyle(.accent).lineLimit(1)
            if let d = item.published { Text(d, style: .relative).font(.caption) }
        }.widgetURL(NewsWidget.link(item))
    }

    static func list(_ entry: NewsEntry, _ items: [NewsItem], divider: Bool) -> TileView {
        VStack {
            header(entry.sourceName, "\(items.count) of \(entry.items.count)")
                .link(DeepLink.make(kind: NewsWidget.kind, "stories"))
            if divider { Divider() }
            for item in items {
                VStack {
                    Text(item.title).lineLimit(1)
                    byline(item, entry)
                }.link(NewsWidget.link(item))
            }
        }
    }

    static func detail(_ link: DeepLink, _ entry: NewsEntry?, _ ctx: TimelineContext) -> TileView {
        if let entry, link.path.first == "stories" || link.path.isEmpty { return storiesPane(entry) }
        let id = link.path.count >= 2 ? link.path[1] : (link.path.first ?? "")
        guard let entry, let item = entry.item(id) else {
            return VStack {
                Text("News").font(.title)
                // With nothing loaded yet (or only a failure), "no longer in the feed" misleads.
                Text(entry == nil ? "No headlines yet: the feed has not loaded" : "This story is no longer in the feed")
                    .font(.caption)
            }
        }
        // The article's address, one line of no control characters, on lines of its own so a long
        // one is not cut to nothing beside other text; Tab reaches it, o opens it.
        let url = TextSanitizer.singleLine(item.url)
        let summaryLines = max(2, ctx.size.height - 9 - (url.isEmpty ? 0 : 1))
        return VStack {
            Text(item.title).font(.title).lineLimit(3)
            HStack {
                Text(item.source).foregroundStyle(.accent)
                if let d = item.published {
                    Text("·").font(.caption)
                    Text(d, style: .date).font(.caption)
                    Text(d, style: .time(seconds: false)).font(.caption)
                    Text("·").font(.caption)
                    Text(d, style: .relative).font(.caption)
                }
            }
            Divider()
            if item.summary.isEmpty {
                Text("No summary in the feed.").font(.caption)
            } else {
                Text(item.summary).lineLimit(summaryLines)
            }
            Spacer()
            if !url.isEmpty {
                Divider()
                Text(url).foregroundStyle(.accent).lineLimit(1).link(url)
                HStack {
                    Text("Tab").font(.headline).foregroundStyle(.accent)
                    Text("highlights the link,").font(.caption)
                    Text("o").font(.headline).foregroundStyle(.accent)
                    Text("opens it in the browser").font(.caption)
                }
            }
        }
    }

    /// Every story the last update brought, each a link to its own pane.
    static func storiesPane(_ entry: NewsEntry) -> TileView {
        VStack {
            header(entry.sourceName, "\(entry.items.count) stories")
            Divider()
            for item in entry.items {
                VStack {
                    Text(item.title).font(.headline).lineLimit(1)
                    HStack {
                        Text(origin(item, entry)).font(.caption).lineLimit(1)
                        Spacer()
                        if let d = item.published { Text(d, style: .relative).font(.caption) }
                    }
                }.link(NewsWidget.link(item))
            }
        }
    }
}
