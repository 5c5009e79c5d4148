import LowbandProxy
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
        #expect(try decode(#"{"profile":"edge","seed":8}"#, .setSeed) == .link(profile: nil, seed: 8))
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
        expectError(#"{"profile":"edge"}"#, .setSeed, .missingField)
    }
}
