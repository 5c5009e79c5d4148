import LowbandProxyCore
import Testing

/// Reading and matching per-destination rules (`lowband proxy --route`, `--routes FILE`, the
/// API's `/routes`): what a user writes, what it matches, and the error for what it cannot be.
@Suite struct ProxyRouteTests {
    static func rule(_ text: String) throws -> ProxyRoute { try ProxyRoute(parsing: text) }

    @Test func aRuleIsAPatternAndAnAction() throws {
        #expect(try Self.rule("*.cdn.example.com=gprs") == ProxyRoute(pattern: RoutePattern(host: "*.cdn.example.com"), action: .path("gprs")))
        #expect(try Self.rule("api.example.com:443=direct").pattern == RoutePattern(host: "api.example.com", port: 443))
        #expect(try Self.rule("*:5222=block") == ProxyRoute(pattern: RoutePattern(host: "*", port: 5222), action: .block))
        #expect(try Self.rule("[::1]:8080=edge").pattern == RoutePattern(host: "::1", port: 8080))
        #expect(try Self.rule("::1=direct").description == "[::1]=direct")
        #expect(try Self.rule(" Example.COM = profiles/slow.yaml ") == ProxyRoute(pattern: RoutePattern(host: "example.com"), action: .path("profiles/slow.yaml")))
        // Written back as read.
        for text in ["*.cdn.example.com=gprs", "api.example.com:443=direct", "*:5222=block", "[::1]:8080=edge", "[::1]=direct"] {
            #expect(try Self.rule(text).description == text)
        }
    }

    @Test func globsMatchNamesAndAddressesCaseInsensitively() throws {
        let cdn = try RoutePattern(parsing: "*.cdn.example.com")
        #expect(cdn.matches(host: "img.cdn.example.com", port: 443))
        #expect(cdn.matches(host: "a.b.CDN.example.com", port: 80))
        #expect(!cdn.matches(host: "cdn.example.com", port: 443))
        #expect(!cdn.matches(host: "img.cdn.example.com.evil.net", port: 443))
        let port = try RoutePattern(parsing: "api.example.com:443")
        #expect(port.matches(host: "api.example.com", port: 443))
        #expect(!port.matches(host: "api.example.com", port: 80))
        let net = try RoutePattern(parsing: "10.0.?.*")
        #expect(net.matches(host: "10.0.3.17", port: 1))
        #expect(!net.matches(host: "10.0.33.17", port: 1))
        #expect(try RoutePattern(parsing: "*").matches(host: "anything", port: 9))
        #expect(try RoutePattern(parsing: "*:*").matches(host: "anything", port: 9))
        // A pathological glob stays linear enough to answer at once.
        let stars = try RoutePattern(parsing: String(repeating: "*a", count: 100) + "b")
        #expect(!stars.matches(host: String(repeating: "a", count: 250), port: 1))
    }

    @Test func theFirstMatchingRuleWins() throws {
        let table = try RouteTable([Self.rule("api.example.com=direct"), Self.rule("*.example.com=gprs"), Self.rule("*=edge")])
        #expect(table.match(host: "api.example.com", port: 443)?.position == 1)
        #expect(table.match(host: "img.example.com", port: 443)?.route.action == .path("gprs"))
        #expect(table.match(host: "other.net", port: 443)?.position == 3)
        #expect(try RouteTable([Self.rule("*.example.com=gprs")]).match(host: "other.net", port: 1) == nil)
    }

    @Test func aRuleThatCannotBeReadSaysWhatIsWrong() {
        let cases: [(String, String)] = [
            ("example.com", "is no rule: write PATTERN=ACTION"),
            ("=gprs", "names no host"),
            ("example.com=", "ACTION is empty"),
            ("example.com:0=gprs", "port '0' is not 1–65535"),
            ("example.com:http=gprs", "port 'http' is not 1–65535"),
            ("[::1=gprs", "needs its ']'"),
            ("exa mple.com=gprs", "a host glob holds letters"),
            (String(repeating: "a", count: 300) + "=gprs", "longer than a host name can be"),
        ]
        for (text, words) in cases {
            do {
                _ = try ProxyRoute(parsing: text)
                Issue.record("'\(text)' was read as a rule")
            } catch {
                #expect(error.message.contains(words), "\(text): \(error.message)")
            }
        }
    }

    @Test func aRulesFileNamesTheLineOfItsFirstBadRule() throws {
        let text = """
            # CDN in a far region
            *.cdn.example.com = gprs   # images

            analytics.example.com=block
            *:5222 = direct
            """
        let routes = try RouteTable.parse(file: text, named: "rules.txt")
        #expect(routes.map(\.description) == ["*.cdn.example.com=gprs", "analytics.example.com=block", "*:5222=direct"])
        #expect(throws: RouteError("rules.txt:3: pattern 'bad:99999': port '99999' is not 1–65535 or '*'")) {
            try RouteTable.parse(file: "a=b\n\nbad:99999=gprs\n", named: "rules.txt")
        }
        let tooMany = Array(repeating: "*=direct", count: RouteTable.maximumRules + 1).joined(separator: "\n")
        #expect(throws: RouteError("rules.txt:1001: more than 1000 rules")) {
            try RouteTable.parse(file: tooMany, named: "rules.txt")
        }
    }
}
