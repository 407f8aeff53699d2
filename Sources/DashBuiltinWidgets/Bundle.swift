import DashWidgets

/// Every widget swiftdash ships.
public enum BuiltinWidgets {
    public static let bundle = WidgetBundle([
        ClockWidget.widget,
        RemindersWidget.widget,
        RecipeTimerWidget.widget,
        WaterWidget.widget,
    ] + BuiltinNetworkWidgets.all)
}
