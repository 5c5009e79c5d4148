/// A per-destination rule: connections whose destination matches ``pattern`` get ``action``.
///
/// Written `PATTERN=ACTION`, as `lowband proxy --route` and the rules file take it:
///
/// - PATTERN is `HOST`, `HOST:PORT` or `[IPV6]:PORT`. HOST is a glob over the name or address
///   the client asked for, case-insensitive: `*` any run of characters (dots too), `?` one
///   character; `*` alone is every host. PORT is a number or `*` (every port, as when omitted).
/// - ACTION is `direct` (the connection does not cross the device's link: no rate, delay, loss
///   or outage of it), `block` (the destination is unreachable: SOCKS reply 2 "not allowed by
///   ruleset", HTTP 403, an `--upstream` client closed at once), or a profile name or file, which
///   plays on the path beyond the device's link (see ``RouteAction/path(_:)``).
///
/// Rules are tried in order and the first that matches wins; a destination no rule matches
/// crosses the device's link alone.
public struct ProxyRoute: Sendable, Hashable, CustomStringConvertible {
    /// Which destinations the rule is for.
    public var pattern: RoutePattern
    /// What happens to their connections.
    public var action: RouteAction

    /// A rule giving `action` to destinations matching `pattern`.
    public init(pattern: RoutePattern, action: RouteAction) {
        self.pattern = pattern
        self.action = action
    }

    /// A rule written `PATTERN=ACTION` (the last `=` splits, so a pattern never holds one).
    ///
    /// - Throws: ``RouteError`` naming the part that is wrong.
    public init(parsing text: String) throws(RouteError) {
        let trimmed = text.trimmingSpaces
        guard let equals = trimmed.lastIndex(of: "=") else {
            throw RouteError("'\(text)' is no rule: write PATTERN=ACTION, e.g. '*.cdn.example.com=gprs', 'api.example.com:443=direct', '*:5222=block'")
        }
        let pattern = String(trimmed[..<equals]).trimmingSpaces
        let action = String(trimmed[trimmed.index(after: equals)...]).trimmingSpaces
        self.init(pattern: try RoutePattern(parsing: pattern), action: try RouteAction(parsing: action))
    }

    /// `PATTERN=ACTION`, as it is written.
    public var description: String { "\(pattern)=\(action)" }
}

/// The destinations a ``ProxyRoute`` is for: a host glob and a port, or every port.
public struct RoutePattern: Sendable, Hashable, CustomStringConvertible {
    /// The host glob, lowercased (`*` any run of characters, `?` one).
    public var host: String
    /// The port; nil for every port.
    public var port: Int?

    /// A pattern for `host` (a glob) on `port`, or every port when nil.
    public init(host: String, port: Int? = nil) {
        self.host = host.lowercased()
        self.port = port
    }

    /// `HOST`, `HOST:PORT` or `[IPV6]:PORT`; `*` for every host or port.
    ///
    /// - Throws: ``RouteError`` for an empty host, a port that is not 1–65535 or `*`, or a host
    ///   with characters no name or address has.
    public init(parsing text: String) throws(RouteError) {
        var host = text
        var port: Int?
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else {
                throw RouteError("pattern '\(text)': an IPv6 address opened with '[' needs its ']'")
            }
            host = String(text[text.index(after: text.startIndex)..<close])
            let rest = text[text.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { throw RouteError("pattern '\(text)': after ']' comes ':PORT' or nothing") }
                port = try Self.port(String(rest.dropFirst()), in: text)
            }
        } else if let colon = text.lastIndex(of: ":"), text.firstIndex(of: ":") == colon {
            host = String(text[..<colon])
            port = try Self.port(String(text[text.index(after: colon)...]), in: text)
        }
        guard !host.isEmpty else {
            throw RouteError("pattern '\(text)' names no host: write '*' for every host, e.g. '*:443'")
        }
        guard host.utf8.count <= 255 else {
            throw RouteError("pattern '\(text.prefix(40))…' is longer than a host name can be (255 bytes)")
        }
        let allowed = host.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "-._:*?".unicodeScalars.contains(scalar))
        }
        guard allowed else {
            throw RouteError("pattern '\(text)': a host glob holds letters, digits, '-', '.', ':' and the wildcards '*' and '?'")
        }
        self.init(host: host, port: port)
    }

    private static func port(_ text: String, in pattern: String) throws(RouteError) -> Int? {
        if text == "*" { return nil }
        guard let port = Int(text), (1...65_535).contains(port) else {
            throw RouteError("pattern '\(pattern)': port '\(text)' is not 1–65535 or '*'")
        }
        return port
    }

    /// Whether a connection to `host` (a name or address, IPv6 without brackets) on `port` matches.
    public func matches(host candidate: String, port candidatePort: Int) -> Bool {
        if let port, port != candidatePort { return false }
        return Self.glob(Array(host.utf8), Array(candidate.lowercased().utf8))
    }

    /// Iterative glob match with one backtrack point per `*` (linear in practice, no recursion).
    private static func glob(_ pattern: [UInt8], _ text: [UInt8]) -> Bool {
        let star = UInt8(ascii: "*"), question = UInt8(ascii: "?")
        var p = 0, t = 0
        var lastStar = -1, lastMatch = 0
        while t < text.count {
            if p < pattern.count, pattern[p] == question || pattern[p] == text[t] {
                p += 1
                t += 1
            } else if p < pattern.count, pattern[p] == star {
                lastStar = p
                lastMatch = t
                p += 1
            } else if lastStar >= 0 {
                p = lastStar + 1
                lastMatch += 1
                t = lastMatch
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == star { p += 1 }
        return p == pattern.count
    }

    /// As written: `HOST`, `HOST:PORT`, `[IPV6]`, `[IPV6]:PORT` (a host with a colon is
    /// bracketed, so it reads back the same).
    public var description: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return port.map { "\(shownHost):\($0)" } ?? shownHost
    }
}

/// What a ``ProxyRoute`` does with its connections.
public enum RouteAction: Sendable, Hashable, CustomStringConvertible {
    /// Not shaped: the connection does not cross the device's link (no rate, delay, loss or
    /// outage of it), as a host excluded from throttling in Charles.
    case direct
    /// Unreachable: refused in the front door's own words (SOCKS reply 2, HTTP 403), or an
    /// `--upstream` client closed at once.
    case block
    /// The connection crosses the device's link, then a path playing this profile (a name or
    /// a YAML file) to its destination; one path per destination host, shared by every
    /// connection to that host.
    case path(String)

    /// `direct`, `block`, or a profile name or file.
    ///
    /// - Throws: ``RouteError`` for an empty action.
    public init(parsing text: String) throws(RouteError) {
        switch text {
        case "": throw RouteError("a rule's ACTION is empty: write a profile name, 'direct' or 'block'")
        case "direct": self = .direct
        case "block": self = .block
        default: self = .path(text)
        }
    }

    /// As written.
    public var description: String {
        switch self {
        case .direct: "direct"
        case .block: "block"
        case .path(let profile): profile
        }
    }
}

/// A rule that cannot be read, with what is wrong.
public struct RouteError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, and where when a file is read.
    public var message: String

    /// An error saying `message`.
    public init(_ message: String) { self.message = message }

    public var description: String { message }
}

/// The rules of a proxy, in order: the first that matches a destination decides.
public struct RouteTable: Sendable, Hashable {
    /// At most this many rules: a table is scanned on every connection.
    public static let maximumRules = 1_000

    /// The rules, tried in order.
    public private(set) var routes: [ProxyRoute]

    /// No rules.
    public static let empty = RouteTable(checked: [])

    private init(checked routes: [ProxyRoute]) { self.routes = routes }

    /// A table of `routes`.
    ///
    /// - Throws: ``RouteError`` when there are more than ``maximumRules``.
    public init(_ routes: [ProxyRoute] = []) throws(RouteError) {
        guard routes.count <= Self.maximumRules else {
            throw RouteError("\(routes.count) rules; at most \(Self.maximumRules) are kept")
        }
        self.routes = routes
    }

    /// The first rule that matches `host` on `port`, with its position from 1; nil when none does.
    public func match(host: String, port: Int) -> (position: Int, route: ProxyRoute)? {
        for (offset, route) in routes.enumerated() where route.pattern.matches(host: host, port: port) {
            return (offset + 1, route)
        }
        return nil
    }

    /// The rules of a rules file: one `PATTERN=ACTION` per line; blank lines and lines starting
    /// with `#` are skipped, and so is anything after ` #` on a line.
    ///
    /// - Throws: ``RouteError`` naming `file` and the line of the first rule that cannot be read.
    public static func parse(file text: String, named file: String) throws(RouteError) -> [ProxyRoute] {
        var routes: [ProxyRoute] = []
        var number = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            var content = Substring(line)
            if let hash = content.indices.first(where: { content[$0] == "#" && $0 > content.startIndex && content[content.index(before: $0)] == " " }) {
                content = content[..<hash]
            }
            let rule = String(content).trimmingSpaces
            guard !rule.isEmpty, !rule.hasPrefix("#") else { continue }
            do {
                routes.append(try ProxyRoute(parsing: rule))
            } catch {
                throw RouteError("\(file):\(number): \(error.message)")
            }
            guard routes.count <= maximumRules else {
                throw RouteError("\(file):\(number): more than \(maximumRules) rules")
            }
        }
        return routes
    }
}

extension String {
    /// Without leading and trailing spaces, tabs and carriage returns.
    fileprivate var trimmingSpaces: String {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        guard let first = firstIndex(where: { !blank($0) }), let last = lastIndex(where: { !blank($0) }) else { return "" }
        return String(self[first...last])
    }
}
