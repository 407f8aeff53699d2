import Foundation
import DashWidgets

/// A note that shows what it is pushed (`swiftdash push note --json FILE`): a git hook's last
/// commit, a cron job's result. Takes the extension protocol's `timeline` answer; an entry may
/// carry views per family or just `title` and `text`.
public enum NoteWidget {
    struct Provider: TimelineProvider {
        func placeholder(in context: TimelineContext) -> ExternalEntry {
            ExternalEntry(date: context.now, title: "Note", text: "Pushed text shows here", kind: "note")
        }
        func snapshot(for configuration: WidgetConfig, in context: TimelineContext) async -> ExternalEntry {
            ExternalEntry(date: context.now, title: "Build passed", text: "main · 3 min ago", kind: "note")
        }
        func timeline(for configuration: WidgetConfig, in context: TimelineContext) async throws -> Timeline<
            ExternalEntry
        > {
            // Nothing to fetch: the content comes by push. Until the first one, say how.
            let title = configuration.string("title")
            let hint = ExternalEntry(
                date: Date(timeIntervalSince1970: 0), title: title.isEmpty ? "Note" : title,
                text: "Nothing pushed yet: swiftdash push note --json FILE", kind: "note")
            return Timeline(entries: [hint], policy: .never)
        }
    }

    public static let widget = Widget(
        kind: "note", displayName: "Note", description: "Shows what `swiftdash push note` hands it",
        supportedFamilies: [.small, .medium, .large, .extraLarge],
        schema: ConfigurationSchema([
            Parameter(
                key: "title", title: "Title", help: "Shown until something is pushed",
                kind: .string(pattern: nil), default: .string("Note"))
        ]),
        cost: .local, provider: Provider(),
        view: { entry, ctx in entry.view(for: ctx.family) },
        detail: { link, entry, _ in
            if let e = entry, let v = e.detail(for: link) { return v }
            return VStack {
                Text(entry?.title ?? "Note").font(.title)
                Text(entry?.text ?? "")
            }
        }
    ).acceptingPush(keepingPushedContent: true) { json in
        // Nothing to reload a note from: a push that names no policy is kept until the next push.
        var timeline = try ExtensionProtocol.timeline(json, kind: "note")
        if json["policy"] == nil { timeline.policy = .never }
        return timeline
    }
}
