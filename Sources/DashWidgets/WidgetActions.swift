import Foundation

extension Widget {
    /// Makes the widget interactive: its tiles may carry `Button`s and `Toggle`s whose actions
    /// are `A`, and `perform` runs one (off the main thread, within `timeout` seconds). It
    /// returns the action that undoes it, or nil when it cannot be undone. The app reloads the
    /// instance's timeline after a successful action.
    public func actions<A: Codable & Sendable>(
        _ type: A.Type, timeout: TimeInterval = 10,
        perform: @escaping @Sendable (A, WidgetConfig, TimelineContext) async throws -> A?
    ) -> Widget {
        var w = self
        w.actionTimeout = timeout
        w._perform = { payload, config, context in
            let action = try payload.decode(A.self)
            return try await perform(action, config, context).map { ActionPayload($0) }
        }
        return w
    }

    /// The files the widget's timeline depends on (a todo.txt): the app watches them and
    /// reloads the instance, free, when one changes.
    public func watchingFiles(_ files: @escaping @Sendable (WidgetConfig, TimelineContext) -> [String]) -> Widget {
        var w = self
        w._watchedFiles = files
        return w
    }

    /// Whether the widget has actions.
    public var isInteractive: Bool { _perform != nil }

    /// Runs an action (configuration resolved as for a timeline). Returns its inverse, if any.
    public func perform(
        _ action: ActionPayload, configuration: WidgetConfig,
        in context: TimelineContext
    ) async throws -> ActionPayload? {
        guard let _perform else { throw ActionError("\(displayName) has no actions") }
        return try await _perform(action, schema.resolve(configuration, environment: context.environment), context)
    }

    /// The files an instance with `configuration` reads (absolute paths).
    public func watchedFiles(for configuration: WidgetConfig, in context: TimelineContext) -> [String] {
        _watchedFiles?(schema.resolve(configuration, environment: context.environment), context) ?? []
    }
}
