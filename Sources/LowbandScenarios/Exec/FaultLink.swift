import LowbandProxy
import LowbandProxyCore
import LowbandShaper

/// What a ``FaultDriver`` plays a fault on: a proxy in front of an upstream, or (with `explore
/// --shell`) a seed's `lowband shell`, whose packet link takes forced outages only. Every request
/// names its fault in `reason` (`fault 3`), so the link's own record says which fault it was.
protocol FaultLink: Sendable {
    func resetAll(reason: String) async throws
    func partition(_ direction: Direction, reason: String?) async throws
    func heal(_ direction: Direction?, reason: String?) async throws
    func forceOutage(for length: Duration, kind: String, reason: String?) async throws
    func addToxic(_ toxic: Toxic) async throws -> Toxic
    func removeToxic(named name: String) async throws
}

extension ShapingProxy: FaultLink {}
