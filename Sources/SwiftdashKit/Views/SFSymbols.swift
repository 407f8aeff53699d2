/// Common SF Symbols names drawn as terminal glyphs (one or two cells). `.fill`, `.circle` and
/// other variants fall back to their base name; an unknown name is drawn as `•`.
public enum SFSymbols {
    public static let glyphs: [String: String] = [
        "star": "☆", "star.fill": "★", "heart": "♡", "heart.fill": "♥", "checkmark": "✓",
        "checkmark.circle": "✓", "checkmark.circle.fill": "✔", "xmark": "✗", "xmark.circle": "✗",
        "circle": "○", "circle.fill": "●", "square": "□", "square.fill": "■", "checkmark.square": "☑",
        "plus": "+", "minus": "−", "plus.circle": "⊕", "minus.circle": "⊖", "multiply": "×", "divide": "÷",
        "arrow.up": "↑", "arrow.down": "↓", "arrow.left": "←", "arrow.right": "→",
        "arrow.up.right": "↗", "arrow.down.right": "↘", "arrow.clockwise": "↻", "arrow.counterclockwise": "↺",
        "arrow.triangle.2.circlepath": "⟳", "chevron.right": "›", "chevron.left": "‹", "chevron.up": "˄",
        "chevron.down": "˅", "triangle": "△", "triangle.fill": "▲", "play": "▷", "play.fill": "▶",
        "pause": "⏸", "pause.fill": "⏸", "stop": "⏹", "stop.fill": "⏹", "forward": "⏩", "backward": "⏪",
        "sun.max": "☀", "sun.max.fill": "☀", "sunrise": "☀", "sunset": "☀", "moon": "☾", "moon.fill": "☾",
        "moon.stars": "☾", "cloud": "☁", "cloud.fill": "☁", "cloud.rain": "☂", "cloud.sun": "⛅",
        "cloud.bolt": "☇", "cloud.snow": "❄", "snowflake": "❄", "bolt": "ϟ", "bolt.fill": "ϟ", "wind": "≋",
        "thermometer": "🌡", "drop": "💧", "drop.fill": "💧", "umbrella": "☂", "flame": "🔥", "flame.fill": "🔥",
        "clock": "◷", "clock.fill": "◷", "alarm": "⏰", "timer": "⏱", "stopwatch": "⏱", "hourglass": "⌛",
        "calendar": "📅", "bell": "🔔", "bell.fill": "🔔", "envelope": "✉", "envelope.fill": "✉",
        "phone": "☎", "phone.fill": "☎", "message": "✉", "bubble.left": "💬", "person": "👤", "person.fill": "👤",
        "person.2": "👥", "house": "⌂", "house.fill": "⌂", "gear": "⚙", "gearshape": "⚙", "gearshape.fill": "⚙",
        "magnifyingglass": "⌕", "trash": "🗑", "folder": "📁", "doc": "📄", "doc.text": "📄", "book": "📖",
        "newspaper": "📰", "bookmark": "🔖", "tag": "🏷", "link": "🔗", "paperclip": "📎", "pencil": "✎",
        "square.and.pencil": "✎", "lock": "🔒", "lock.fill": "🔒", "lock.open": "🔓", "key": "🔑",
        "cart": "🛒", "creditcard": "💳", "dollarsign.circle": "$", "dollarsign": "$", "bitcoinsign.circle": "₿",
        "eurosign": "€", "chart.bar": "▁▃▅", "chart.bar.fill": "▁▃▅", "chart.line.uptrend.xyaxis": "📈",
        "chart.pie": "◔", "waveform": "∿", "cpu": "▣", "memorychip": "▤", "desktopcomputer": "🖥",
        "laptopcomputer": "💻", "iphone": "📱", "wifi": "📶", "antenna.radiowaves.left.and.right": "📶",
        "battery.100": "▮▮▮", "battery.50": "▮▮▯", "battery.25": "▮▯▯", "battery.0": "▯▯▯", "power": "⏻",
        "music.note": "♪", "music.note.list": "♫", "speaker.wave.2": "🔊", "speaker.slash": "🔇", "mic": "🎤",
        "camera": "📷", "photo": "🖼", "film": "🎞", "tv": "📺", "gamecontroller": "🎮", "car": "🚗",
        "airplane": "✈", "bicycle": "🚲", "figure.walk": "🚶", "figure.run": "🏃", "leaf": "🍃", "globe": "🌐",
        "map": "🗺", "mappin": "📍", "location": "➤", "location.fill": "➤", "flag": "⚑", "flag.fill": "⚑",
        "exclamationmark.triangle": "⚠", "exclamationmark.triangle.fill": "⚠", "exclamationmark.circle": "ⓘ",
        "info.circle": "ⓘ", "questionmark.circle": "?", "exclamationmark": "!", "questionmark": "?",
        "list.bullet": "☰", "line.3.horizontal": "☰", "ellipsis": "…", "ellipsis.circle": "⋯",
        "cup.and.saucer": "☕", "fork.knife": "🍴", "cart.fill": "🛒", "gift": "🎁", "sparkles": "✨",
        "bolt.heart": "♥", "heart.text.square": "♥", "cross": "✚", "pills": "💊", "bed.double": "🛏",
        "brain": "🧠", "graduationcap": "🎓", "terminal": "⌨", "keyboard": "⌨", "command": "⌘",
        "chevron.left.forwardslash.chevron.right": "</>", "arrow.triangle.branch": "⑂", "swift": "🐦",
        "hammer": "🔨", "wrench": "🔧", "ant": "🐜", "ladybug": "🐞", "shippingbox": "📦", "tray": "📥",
        "square.stack": "❏", "rectangle.stack": "❏", "square.grid.2x2": "⊞", "app": "▢",
        "dot.radiowaves.left.and.right": "📡",
    ]

    /// The glyph for a symbol name: the name, then without its last part (`.fill`, `.circle`…).
    public static func glyph(_ name: String) -> String {
        var n = name
        while true {
            if let g = glyphs[n] { return g }
            guard let dot = n.lastIndex(of: ".") else { return "•" }
            n = String(n[..<dot])
        }
    }
}
