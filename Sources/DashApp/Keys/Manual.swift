import DashWidgets

/// The man page's key and widget-settings reference, in mdoc: written from the key table the
/// help is drawn from and from the widgets' schemas, so the page cannot drift from either.
/// `make man` appends it to swiftdash.1 (`swiftdash manual-sections`).
public enum Manual {
    /// `.Sh KEYS`: every binding of the key table by its group, then the mouse.
    public static func keys() -> String {
        var out = [
            ".Sh KEYS",
            "The keys of the home screen and its panes, as the help overlay (?) lists them.",
        ]
        for group in KeyTable.groups {
            let rows = KeyTable.bindings.filter { $0.group == group }
            guard !rows.isEmpty else { continue }
            out += [".Ss \(text(group))", ".Bl -tag -width Ds"]
            for b in rows { out += [".It Sy \(argument(b.label))", text(b.help)] }
            out.append(".El")
        }
        out += [".Ss Mouse", ".Bl -tag -width Ds"]
        for (action, help) in KeyTable.mouse { out += [".It Sy \(argument(action))", text(help)] }
        out.append(".El")
        return out.joined(separator: "\n") + "\n"
    }

    /// `.Sh WIDGET SETTINGS`: what each widget of `bundle` takes under a tile's `config:` in
    /// home.yaml (and in `config set`, `add --set`, the form): its parameters, what each
    /// allows and its default.
    public static func widgetSettings(_ bundle: WidgetBundle) -> String {
        var out = [
            ".Sh WIDGET SETTINGS",
            "A tile of home.yaml names its widget (widget: KIND) and may set its parameters under config:;",
            "config set ID key=value, add KIND --set key=value and the Edit Widget form (e) take the same,",
            "checked the same way. The built-in widgets:",
        ]
        for w in bundle.widgets {
            let about = w.description.hasSuffix(".") ? w.description : w.description + "."
            out += [".Ss \(text(w.kind))", text("\(w.displayName): \(about)")]
            let families = w.supportedFamilies.map(\.rawValue).joined(separator: ", ")
            out.append(text("Sizes: \(families)."))
            guard !w.schema.parameters.isEmpty else {
                out.append(text("It has no settings."))
                continue
            }
            out.append(".Bl -tag -width Ds")
            for p in w.schema.parameters {
                out.append(".It Cm \(argument(p.key)) Ar \(argument(p.kind.typeName))")
                let value = p.display(p.defaultValue)
                var line = p.help.isEmpty ? p.title : p.help
                if !line.hasSuffix(".") { line += "." }
                line += " Allowed: \(p.allowed). Default: \(value.isEmpty ? "empty" : value)."
                if let env = p.environmentVariable { line += " Empty: $\(env)." }
                out.append(text(line))
            }
            out.append(".El")
        }
        return out.joined(separator: "\n") + "\n"
    }

    /// A line of running text: a backslash is written \e, and a line that would start with a
    /// control character (. or ') starts with the zero-width \&.
    static func text(_ s: String) -> String {
        let t = s.replacingOccurrences(of: "\\", with: "\\e").replacingOccurrences(of: "\n", with: " ")
        return t.hasPrefix(".") || t.hasPrefix("'") ? "\\&" + t : t
    }

    /// One macro argument, quoted (so words such as `Ar` are not read as macros); a quote in
    /// it is doubled.
    static func argument(_ s: String) -> String {
        "\"" + text(s).replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
