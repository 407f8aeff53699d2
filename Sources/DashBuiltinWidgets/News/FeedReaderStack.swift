import Foundation

// The element stack of `FeedReader`: which element an entry field comes from, content types.
extension FeedReader {
    mutating func push(_ name: String, _ expectingText: Bool) {
        // Collectors left open by unclosed elements pile up at the bottom: drop the oldest.
        if stack.count >= Self.maxStack { stack.removeFirst(Self.maxStack / 4) }
        stack.append(Pending(name: name, expectingText: expectingText))
    }

    /// Adds text to the innermost collector, up to `maxFieldBytes` in all: a huge field keeps
    /// its start (cut at a character), the rest is dropped.
    mutating func appendPiece(_ s: String, raw: Bool = true) {
        guard !stack.isEmpty else { return }
        let room = Self.maxFieldBytes - stack[stack.count - 1].bytes
        guard room > 0 else { return }
        var piece = s
        if s.utf8.count > room {
            var used = 0
            var end = s.startIndex
            for ch in s {
                let n = ch.utf8.count
                if used + n > room { break }
                used += n
                end = s.index(after: end)
            }
            piece = String(s[..<end])
        }
        stack[stack.count - 1].bytes += piece.utf8.count
        stack[stack.count - 1].pieces.append(piece)
    }

    mutating func pushContent(
        _ name: String, _ attrs: [String: String], defaultType: String,
        expectingText: Bool
    ) {
        inContent += 1
        contentType = Self.mapContentType(attrs["type"] ?? defaultType)
        contentMode = attrs["mode"]?.lowercased() ?? Self.impliedMode(attrs["type"])
        push(name, expectingText)
    }

    mutating func popContent(_ name: String) -> String? {
        let value = pop(name)
        inContent = max(0, inContent - 1)
        contentType = nil
        contentMode = nil
        return value
    }

    /// Atom content (also a description or summary that comes after a summary). Like
    /// feedparser it opens two text collectors and closes one; the other stays open and
    /// only ever collects stray text, which nobody reads.
    mutating func startContent(_ attrs: [String: String]) {
        hasContent = true
        pushContent("content", attrs, defaultType: "text/plain", expectingText: true)
        push("content", true)
    }

    mutating func endContent() {
        let type = Self.mapContentType(contentType ?? "")
        let copyToSummary = type == "text/plain" || type == "text/html" || type == Self.xhtml
        let isHTML = type == "text/html" || type == Self.xhtml
        let value = popContent("content")
        if copyToSummary, let value { saveField("summary", Field(value: value, isHTML: isHTML), overwrite: false) }
    }

    /// Atom 1.0 has no `mode`: a text construct whose type is neither text nor XML
    /// (`application/octet-stream`) is base64, as RFC 4287 §4.1.3.3 says and feedparser reads it.
    static func impliedMode(_ type: String?) -> String? {
        guard let t = type?.lowercased(), t.contains("/") else { return nil }
        if t.hasPrefix("text/") || t.hasSuffix("/xml") || t.hasSuffix("+xml") { return nil }
        return "base64"
    }

    static func mapContentType(_ t: String) -> String {
        let type = t.lowercased()
        switch type {
        case "text", "plain": return "text/plain"
        case "html": return "text/html"
        case "xhtml": return xhtml
        default: return type
        }
    }

    mutating func startLink(_ attrsIn: [String: String]) {
        var attrs = attrsIn
        var rel = attrs["rel"] ?? "alternate"
        // RFC 4287: a relation may be written as its full IANA URI.
        let iana = "http://www.iana.org/assignments/relation/"
        if rel.hasPrefix(iana), rel.count > iana.count { rel = String(rel.dropFirst(iana.count)) }
        attrs["rel"] = rel
        let type = attrs["type"] ?? (rel == "self" ? "application/atom+xml" : "text/html")
        var href = attrs["href"]
        if let alt = attrs["url"] ?? attrs["uri"] ?? attrs["href"], !alt.isEmpty { href = alt }
        if let h = href {
            let resolved = FeedURL.resolve(h, against: base)
            let htmlType = Self.mapContentType(type)
            // The last alternate link to an HTML page is the story.
            if rel == "alternate", htmlType == "text/html" || htmlType == Self.xhtml {
                saveField("link", Field(value: resolved, isHTML: false), overwrite: true)
            }
        } else {
            push("link", inFeed || inEntry || inSource)
        }
    }

    /// Ends the element `name` if it is the innermost one collecting text, and stores its
    /// value where it belongs; returns the value.
    mutating func pop(_ name: String) -> String? {
        guard let top = stack.last, top.name == name else { return nil }
        stack.removeLast()
        var pieces = top.pieces
        if version == "atom10", contentType == Self.xhtml {
            // An Atom xhtml construct's single wrapping <div> is not part of its content.
            while pieces.count > 1, pieces.last!.trimmingWhitespace().isEmpty { pieces.removeLast() }
            while pieces.count > 1, pieces.first!.trimmingWhitespace().isEmpty { pieces.removeFirst() }
            if let first = pieces.first, first == "<div>" || first.hasPrefix("<div "), pieces.last == "</div>" {
                var d = 0
                var wraps = true
                for piece in pieces.dropLast() {
                    if piece.hasPrefix("</") {
                        d -= 1
                        if d == 0 {
                            wraps = false
                            break
                        }
                    } else if piece.hasPrefix("<"), !piece.hasSuffix("/>") {
                        d += 1
                    }
                }
                if wraps { pieces = Array(pieces.dropFirst().dropLast()) }
            }
        }
        var output = pieces.joined().trimmingWhitespace()
        guard top.expectingText else { return output }
        // Atom 0.3 `mode="base64"`: the text is base64 (as feedparser reads it, UTF-8 within).
        if contentMode == "base64", let data = Data(base64Encoded: output.filter { !$0.isWhitespace }) {
            output = String(decoding: data, as: UTF8.self)
        }

        if ["link", "id", "href", "url", "icon", "logo", "docs", "comments"].contains(name), !output.isEmpty {
            if name != "id" || guidIsLink { output = FeedURL.resolve(output, against: base) }
        }
        if !version.hasPrefix("atom"), contentType == "text/plain", Self.looksLikeHTML(output) {
            contentType = "text/html"
        }
        let type = Self.mapContentType(contentType ?? "text/html")
        let isHTML = type == "text/html" || type == Self.xhtml
        output = OutsideText.mapC1(OutsideText.repairMojibake(output))

        if name == "title", titleDepth > -1, titleDepth <= depth { return output }

        if inEntry, !inSource {
            if name == "content" { return output }
            if name == "link" {
                if !inImage {
                    setEntryField("link", Self.fixQueryAmpersands(output.replacingOccurrences(of: "&amp;", with: "&")))
                }
                return output
            }
            let key = name == "description" ? "summary" : name
            guard !entries.isEmpty else { return output }
            let old = entries[entries.count - 1].depths[key]
            if old == nil || depth <= old! {
                entries[entries.count - 1].depths[key] = depth
                entries[entries.count - 1].fields[key] = Field(value: output, isHTML: isHTML)
            }
        } else if inFeed || inSource {
            let key = name == "description" ? "subtitle" : name
            let value = key == "link" ? Self.fixQueryAmpersands(output) : output
            saveField(key, Field(value: value, isHTML: isHTML), overwrite: true)
        }
        return output
    }

    /// The context that fields go to: a source, the feed's image or text input, the entry
    /// or the feed.
    func context() -> Entry? {
        if inSource { return source }
        if inImage && feedHasImage { return image }
        if inTextInput { return textInput }
        if inEntry { return entries.last }
        return feed
    }

    mutating func setEntryField(_ key: String, _ value: String) {
        guard !entries.isEmpty else { return }
        entries[entries.count - 1].fields[key] = Field(value: value, isHTML: false)
    }

    /// Stores `value` under `key` in the current context unless it has one.
    mutating func save(_ key: String, _ value: String) {
        saveField(key, Field(value: value, isHTML: false), overwrite: false)
    }

    mutating func saveField(_ key: String, _ f: Field, overwrite: Bool) {
        if inSource {
            if overwrite || source.fields[key] == nil { source.fields[key] = f }
        } else if inImage && feedHasImage {
            if overwrite || image.fields[key] == nil { image.fields[key] = f }
        } else if inTextInput {
            if overwrite || textInput.fields[key] == nil { textInput.fields[key] = f }
        } else if inEntry, !entries.isEmpty {
            if overwrite || entries[entries.count - 1].fields[key] == nil { entries[entries.count - 1].fields[key] = f }
        } else if overwrite || feed.fields[key] == nil {
            feed.fields[key] = f
        }
    }

    /// Any backend.userland.com namespace (`…/rss2` in RSS 2.0 written with a prefix) is RSS's
    /// own, as feedparser matches it.
    static func userlandNamespace(_ uri: String) -> String {
        uri.lowercased().contains("backend.userland.com/rss") ? "http://backend.userland.com/rss" : uri
    }

    mutating func trackNamespace(prefix: String?, uri: String) {
        let lower = uri.lowercased()
        guard version.isEmpty else { return }
        if prefix == nil, lower == "http://my.netscape.com/rdf/simple/0.9/" {
            version = "rss090"
        } else if lower == "http://purl.org/rss/1.0/" {
            version = "rss10"
        } else if lower == "http://www.w3.org/2005/atom" {
            version = "atom10"
        }
    }
}
