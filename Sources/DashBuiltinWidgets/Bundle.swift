import DashWidgets

/// Every widget swiftdash ships.
public enum BuiltinWidgets {
    public static let bundle = WidgetBundle([
        ClockWidget.widget,
        NoteWidget.widget,
    ] + BuiltinNetworkWidgets.all)
}
