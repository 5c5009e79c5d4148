package import NIOHTTP1

/// Which browser requests the control API serves: only those of the live page, which carry the
/// process's token — in the `X-Lowband-Token` header, or in the query of the page's own address
/// (`GET /ui?token=…`) — and, when the browser names an origin, come from the API's own. A page
/// on another site can neither read the token nor set that header without a CORS preflight,
/// which the API does not answer, so the refusal toxiproxy makes against cross-site requests
/// still stands for everyone else.
package enum BrowserGate {
    package static func admits(_ head: HTTPRequestHead, token: String?) -> Bool {
        guard let token, !token.isEmpty else { return false }
        if let origin = head.headers.first(name: "origin") {
            guard let host = head.headers.first(name: "host"), origin == "http://\(host)" else { return false }
        }
        if let given = head.headers.first(name: "x-lowband-token") { return same(given, token) }
        let parts = head.uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        guard head.method == .GET, parts.first == "/ui", parts.count == 2 else { return false }
        for pair in parts[1].split(separator: "&") where pair.hasPrefix("token=") {
            return same(String(pair.dropFirst("token=".count)), token)
        }
        return false
    }

    /// Compares in time that depends on the length only.
    package static func same(_ given: String, _ token: String) -> Bool {
        let a = Array(given.utf8), b = Array(token.utf8)
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }

    /// A fresh token: 128 random bits in hex.
    package static func makeToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in
            let value = generator.next() as UInt64
            let hex = String(value, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }
}
