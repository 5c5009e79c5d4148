/// Escaping for text that came from outside the report (profile names read from files, command
/// lines, event details) before it goes into HTML or SVG markup.
enum HTMLEscaping {
    /// `text` safe both as element content and inside a double- or single-quoted attribute.
    ///
    /// Control characters other than tab and newline are dropped: HTML cannot carry them and a
    /// profile file name has no business containing them.
    static func escape(_ text: some StringProtocol) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            case "\t", "\n": escaped.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) { continue }
                escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    /// A token usable in an `id` attribute and a URL fragment, derived from `text`: lowercase
    /// ASCII letters, digits and `-`, never empty.
    ///
    /// Distinct names can map to one slug (`EDGE` and `edge`); ``uniqueSlugs(_:)`` resolves that.
    static func slug(_ text: some StringProtocol) -> String {
        var slug = ""
        var pendingDash = false
        for scalar in text.unicodeScalars {
            let isLetter = ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar)
            let isUpper = ("A"..."Z").contains(scalar)
            if isLetter || isUpper {
                if pendingDash, !slug.isEmpty { slug += "-" }
                pendingDash = false
                slug.unicodeScalars.append(isUpper ? Unicode.Scalar(UInt8(scalar.value + 32)) : scalar)
            } else {
                pendingDash = true
            }
        }
        return slug.isEmpty ? "profile" : slug
    }

    /// One slug per name, in order, made unique by suffixing `-2`, `-3`… to repeats.
    static func uniqueSlugs(_ names: [String]) -> [String] {
        var used: Set<String> = []
        return names.map { name in
            let base = slug(name)
            var candidate = base
            var suffix = 2
            while used.contains(candidate) {
                candidate = "\(base)-\(suffix)"
                suffix += 1
            }
            used.insert(candidate)
            return candidate
        }
    }
}
