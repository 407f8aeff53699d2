import Yams
import DashWidgets

extension HomeConfig {
    /// `- clock` in `tiles:`: shorthand for `{widget: clock}` in the widget's default family.
    /// A file that uses it keeps it: the editor copies an unchanged tile's lines as they are.
    static func shorthandTile(
        _ kind: String, node: Node, index: Int, counter: inout Int, file: String, bundle: WidgetBundle
    ) throws -> TileInstance {
        guard let widget = bundle[kind] else {
            throw ConfigFileError(
                file: file, line: node.mark?.line,
                message: "unknown widget `\(shown(kind))`; available: " + bundle.kinds.joined(separator: ", "))
        }
        counter += 1
        return TileInstance(
            id: "t\(index + 1)", family: defaultFamily(of: widget),
            items: [WidgetInstance(id: "w\(counter)", kind: kind, config: WidgetConfig())])
    }

    /// The family a tile gets when the file names none in the shorthand: small where the widget
    /// has it, else its first size.
    public static func defaultFamily(of widget: Widget) -> WidgetFamily {
        widget.supports(.small) ? .small : widget.supportedFamilies.first ?? .small
    }
}
