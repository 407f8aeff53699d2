import DashWidgets

/// Every widget swiftdash ships.
public enum BuiltinWidgets {
    public static let bundle = make(transport: SubprocessTransport())

    /// The same widgets, their HTTP requests sent by `transport` (the provider host sends
    /// them in its own process; everything else runs the `swiftdash-fetch` helper per request).
    public static func make(transport: any HTTPTransport) -> WidgetBundle {
        func http(_ options: HTTPOptions = .standard) -> HTTPClient {
            HTTPClient(options: options, transport: transport)
        }
        return WidgetBundle(
            [
                ClockWidget.widget,
                CalendarWidget.make(http: http(CalendarWidget.defaultHTTP.options))
                    .relevance("15 min before an event (0.75) and while it runs (1)"),
                SystemWidget.widget.relevance(
                    "under pressure: CPU over 70 %, memory over 80 %, a disk over 90 %, heavy swap"),
                WeatherWidget.make(http: http()).relevance("a storm within 3 hours (1), or rain likelier than 50 %"),
                CommandWidget.widget.relevance("when the command fails (0.8)"),
                NoteWidget.widget,
                RemindersWidget.widget.relevance("a task overdue (1) or due today (0.7)"),
                RecipeTimerWidget.widget.relevance(
                    "while a timer runs (1, from each step change), when it is done (0.8)"),
                WaterWidget.widget.relevance("when a drink is due (0.9)"),
            ] + BuiltinNetworkWidgets.widgets(http: http()) + [
                APIWidget.make(http: http(HTTPOptions(maxBytes: 2 * 1024 * 1024))),
                ChartWidget.make(http: http(HTTPOptions(maxBytes: 2 * 1024 * 1024))),
                GitHubWidget.make(http: http()),
            ])
    }
}
