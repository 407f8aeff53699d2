import DashWidgets

/// Every widget swiftdash ships.
public enum BuiltinWidgets {
    public static let bundle = WidgetBundle(
        [
            ClockWidget.widget,
            CalendarWidget.widget,
            SystemWidget.widget,
            WeatherWidget.widget,
            CommandWidget.widget,
            NoteWidget.widget,
            RemindersWidget.widget,
            RecipeTimerWidget.widget,
            WaterWidget.widget,
        ] + BuiltinNetworkWidgets.all)
}
