import Foundation
import FuzzSupport
import LowbandProxy
import LowbandProxyCore

/// The control API's request bodies: the first byte picks the route, the rest is the JSON body,
/// decoded and checked by `ControlRequestBody` as the route does before it acts.
///
/// Bad bodies must give a `ProxyError` with HTTP status 400 (typed throws). A toxic that is
/// accepted is written as toxiproxy's JSON, which reads back as the same toxic.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let routes = ControlRequestBody.Route.allCases
    let route = routes[Int(input.takeByte()) % routes.count]
    let body = input.rest()
    let decoded: ControlRequestBody
    do throws(ProxyError) {
        decoded = try ControlRequestBody(decoding: body, for: route)
    } catch {
        require(error.code.httpStatus == 400, "\(route): a bad body gave \(error.code) (\(error.code.httpStatus)): \(error)")
        return 0
    }
    if case let .toxic(toxic) = decoded {
        do {
            let json = try JSONEncoder().encode(toxic)
            let again = try ControlRequestBody(decoding: Array(json), for: .addToxic)
            require(again == decoded, "toxic changed through its JSON: \(String(decoding: json, as: UTF8.self))")
        } catch {
            finding("an accepted toxic does not read back from its JSON: \(error)")
        }
    }
    if case let .routes(routes) = decoded {
        // A rule the API accepted reads back as itself from how it is written (GET /routes).
        for route in routes {
            do throws(RouteError) {
                let again = try ProxyRoute(parsing: route.description)
                require(again == route, "route '\(route)' reads back as '\(again)'")
            } catch {
                finding("an accepted route '\(route)' does not read back: \(error)")
            }
        }
    }
    return 0
}
