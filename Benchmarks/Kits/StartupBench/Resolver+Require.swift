import Swinject

extension Resolver {
    /// Resolves a registration the wiring code itself made; a miss is a bug in that code, so it
    /// stops with the type and name instead of returning nil.
    func require<Service>(_ type: Service.Type, name: String? = nil) -> Service {
        guard let service = resolve(type, name: name) else {
            preconditionFailure("the container has no registration for \(type)\(name.map { " named \($0)" } ?? ""); register it before resolving")
        }
        return service
    }
}
