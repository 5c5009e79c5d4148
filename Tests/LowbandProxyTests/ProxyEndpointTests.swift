import LowbandProxy
import LowbandProxyCore
import Testing

/// `host:port` as every command and the control API read it: one parser, toxiproxy's form.
@Suite struct ProxyEndpointTests {
    @Test(arguments: [
        "127.0.0.1:9000": ProxyEndpoint(host: "127.0.0.1", port: 9000),
        "localhost:8080": ProxyEndpoint(host: "localhost", port: 8080),
        "  127.0.0.1:1  ": ProxyEndpoint(host: "127.0.0.1", port: 1),
        "[::1]:8080": ProxyEndpoint(host: "::1", port: 8080),
        "[fe80::1%eth0]:65535": ProxyEndpoint(host: "fe80::1%eth0", port: 65_535),
        ":8474": ProxyEndpoint(host: "127.0.0.1", port: 8474),
        "0.0.0.0:0": ProxyEndpoint(host: "0.0.0.0", port: 0),
    ])
    func goodAddressesParse(text: String, expected: ProxyEndpoint) throws {
        let endpoint = try ProxyEndpoint(parsing: text)
        #expect(endpoint == expected)
        // It prints back in a form that parses to itself.
        #expect(try ProxyEndpoint(parsing: endpoint.description) == endpoint)
    }

    @Test(arguments: [
        "127.0.0.1", "127.0.0.1:", "127.0.0.1:65536", "127.0.0.1:99999", "127.0.0.1:-1", "127.0.0.1:+80",
        "127.0.0.1:8o80", "127.0.0.1:123456", "::1:80", "[::1:80", "::1]:80", "[]:80", "my host:80", "", ":",
    ])
    func badAddressesAreRefusedNamingTheText(text: String) {
        let error = #expect(throws: ProxyError.self) { try ProxyEndpoint(parsing: text) }
        #expect(error?.code == .badEndpoint)
        #expect(error?.message.contains("'\(text)'") == true, "\(error?.message ?? "")")
    }

    @Test func anIPv6HostPrintsInBrackets() {
        #expect(ProxyEndpoint(host: "::1", port: 80).description == "[::1]:80")
        #expect(ProxyEndpoint(host: "127.0.0.1", port: 80).description == "127.0.0.1:80")
    }
}
