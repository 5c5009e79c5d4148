import LowbandProxy
import LowbandProxyCore
import Testing

/// The control API's request bodies decoded without a socket: what each route accepts and the
/// 400 error each mistake gets.
@Suite struct ControlRequestBodyTests {
    private func decode(_ json: String, _ route: ControlRequestBody.Route) throws(ProxyError) -> ControlRequestBody {
        try ControlRequestBody(decoding: Array(json.utf8), for: route)
    }

    private func expectError(_ json: String, _ route: ControlRequestBody.Route, _ code: ProxyError.Code, sourceLocation: SourceLocation = #_sourceLocation) {
        do {
            let body = try decode(json, route)
            Issue.record("\(route) accepted \(json) as \(body)", sourceLocation: sourceLocation)
        } catch {
            #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
            #expect(error.code.httpStatus == 400, sourceLocation: sourceLocation)
        }
    }

    @Test func acceptsToxiproxyBodies() throws {
        #expect(try decode(#"{"name":"redis","listen":"127.0.0.1:0","upstream":"localhost:6379"}"#, .createProxy)
            == .proxy(ProxySpecification(name: "redis", listen: "127.0.0.1:0", upstream: "localhost:6379")))
        #expect(try decode(#"{"enabled":false}"#, .updateProxy) == .proxy(ProxySpecification(enabled: false)))
        #expect(try decode(#"{"type":"latency","attributes":{"latency":100}}"#, .addToxic)
            == .toxic(Toxic(type: .latency, attributes: ["latency": 100, "jitter": 0])))
        #expect(try decode(#"{"attributes":{"rate":5}}"#, .updateToxic) == .toxicUpdate(attributes: ["rate": 5], toxicity: nil))
        #expect(try decode(#"{"profile":"edge","seed":7}"#, .setProfile) == .link(profile: "edge", seed: 7))
        #expect(try decode(#"{"seed":8}"#, .setSeed) == .link(profile: nil, seed: 8))
    }

    @Test func refusesEachMistakeWithA400() {
        expectError(#"{"name":"x","#, .createProxy, .badRequest)
        expectError(#"{"upstream":"127.0.0.1:1"}"#, .createProxy, .missingField)
        expectError(#"{"name":"x","upstream":"nowhere"}"#, .createProxy, .badEndpoint)
        expectError(#"[{"name":"x","upstream":":1"},{"name":"y"}]"#, .populate, .missingField)
        expectError(#"{"listen":"::1:80"}"#, .updateProxy, .badEndpoint)
        expectError(#"{"type":"teleport"}"#, .addToxic, .invalidToxicType)
        expectError(#"{"type":"latency","stream":"sideways"}"#, .addToxic, .invalidStream)
        expectError(#"{"type":"slicer","attributes":{"average_size":0}}"#, .addToxic, .invalidAttribute)
        expectError(#"{"type":"latency","attributes":{"latency":"100"}}"#, .addToxic, .badRequest)
        expectError(#"{}"#, .setSeed, .missingField)
        // The seed route changes only the seed; a profile there is a mistake, not a no-op.
        expectError(#"{"profile":"edge","seed":8}"#, .setSeed, .badRequest)
    }

    private func message(_ json: String, _ route: ControlRequestBody.Route) -> String? {
        do {
            _ = try decode(json, route)
            return nil
        } catch {
            #expect(error.code.httpStatus == 400)
            return error.message
        }
    }

    @Test func refusesUnknownKeysNamingTheKeysItKnows() {
        #expect(message(#"{"profil":"3g"}"#, .setProfile)
            == "unknown key 'profil' in the body of POST /proxies/{proxy}/profile; known keys: profile, seed")
        #expect(message(#"{"sed":5}"#, .setSeed) == "unknown key 'sed' in the body of POST /proxies/{proxy}/seed; known keys: seed")
        #expect(message(#"{"name":"x","upstream":":1","lsten":":2"}"#, .createProxy)
            == "unknown key 'lsten' in the body of POST /proxies; known keys: name, listen, upstream, enabled, toxics")
        #expect(message(#"[{"name":"a","upstream":":1"},{"name":"b","upstrem":":1"}]"#, .populate)?
            .hasPrefix("unknown key 'upstrem' in proxy 2 in the body of POST /populate;") == true)
        // Once a latency toxic with a misspelt attribute became a 0 ms latency toxic.
        #expect(message(#"{"type":"latency","attributes":{"latncy":100}}"#, .addToxic)
            == "toxic 'latency_downstream': unknown attribute 'latncy' of a latency toxic; known attributes: latency, jitter")
        #expect(message(#"{"attributes":{"latency":5},"toxicty":0.5}"#, .updateToxic)?.hasPrefix("unknown key 'toxicty'") == true)
    }

    @Test func refusesValuesOutOfRangeNamingTheRange() {
        // Once "The given data was not valid JSON."
        #expect(message(#"{"seed":-1}"#, .setSeed) == "seed must be 0...18446744073709551615, not -1")
        #expect(message(#"{"seed":1.5}"#, .setProfile) == "seed must be 0...18446744073709551615, not 1.5")
        #expect(message(#"{"seed":"7"}"#, .setSeed) == #"seed must be 0...18446744073709551615, not "7""#)
        #expect(message(#"{"seed":18446744073709551615}"#, .setSeed) == nil)
        #expect(message(#"{"type":"latency","attributes":{"latency":-5}}"#, .addToxic)
            == "toxic 'latency_downstream': attribute latency must be 0...1000000000, not -5")
        #expect(message(#"{"type":"latency","toxicity":1.5}"#, .addToxic) == "toxic 'latency_downstream': toxicity must be 0...1, not 1.5")
        #expect(message(#"{"toxicity":-0.5}"#, .updateToxic) == "toxicity must be 0...1, not -0.5")
    }

    @Test func acceptsEveryKeyToxiproxyClientsSend() throws {
        // toxiproxy-python's add_toxic, and the Go client's whole proxy (with its toxics).
        #expect(try decode(#"{"name":"lat","type":"latency","stream":"upstream","toxicity":1.0,"attributes":{"latency":200,"jitter":0}}"#, .addToxic)
            == .toxic(Toxic(name: "lat", type: .latency, stream: .upstream, attributes: ["latency": 200, "jitter": 0])))
        #expect(try decode(#"{"name":"a","listen":"127.0.0.1:0","upstream":"127.0.0.1:1","enabled":true,"toxics":null}"#, .createProxy)
            == .proxy(ProxySpecification(name: "a", listen: "127.0.0.1:0", upstream: "127.0.0.1:1", enabled: true)))
        #expect(try decode(#"{"enabled":false,"toxics":[]}"#, .updateProxy) == .proxy(ProxySpecification(enabled: false)))
        #expect(try decode(#"{"name":"lat","type":"latency","stream":"upstream","toxicity":0.5,"attributes":{"latency":10}}"#, .updateToxic)
            == .toxicUpdate(attributes: ["latency": 10], toxicity: 0.5))
    }
}
