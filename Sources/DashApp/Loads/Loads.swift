import Foundation
import DashWidgets
import DashScheduler
import DashRender
import DashHome

/// A load to run: what the scheduler asked for and the context the provider is asked in.
public struct LoadJob: Sendable {
    public var request: LoadRequest
    public var context: TimelineContext
    public init(request: LoadRequest, context: TimelineContext) {
        self.request = request
        self.context = context
    }
    public var id: String { request.id }
    public var token: UInt64 { request.token }
}

/// Running providers, one way for every caller: the home screen, `render`, `preview` and
/// `timeline`.
public enum Loads {
    /// The context a provider or view of `family` is asked in: the content size of a tile of
    /// that family, the user's time zone and environment, `now`.
    public static func context(
        family: WidgetFamily, now: Date, environment: AppEnvironment,
        colorScheme: ColorScheme = .dark, isPreview: Bool = false
    ) -> TimelineContext {
        let size = Chrome.contentSize(family)
        return TimelineContext(
            family: family, size: (size.width, size.height), now: now, isPreview: isPreview,
            colorScheme: colorScheme, timeZone: environment.timeZone,
            environment: environment.variables)
    }
}
