import Swinject

extension SyntheticGraph {
    /// Builds the graph by hand: constructors called in dependency order from the table, no
    /// container. Returns the roots.
    public func wiredByHand() -> [SyntheticService] {
        var built: [SyntheticService] = []
        built.reserveCapacity(size)
        for index in 0 ..< size {
            built.append(SyntheticService(index: index, dependencies: dependencies[index].map { built[$0] }))
        }
        return roots.map { built[$0] }
    }

    /// Registers every service in a new Swinject container (`.container` scope: one instance
    /// each, shared by all dependents), each factory resolving its dependencies from the
    /// container, then resolves the roots. Returns the roots with the container.
    public func wiredBySwinject() -> ContainerGraph<[SyntheticService]> {
        let container = Container(defaultObjectScope: .container)
        let names = self.names
        for index in 0 ..< size {
            let needs = dependencies[index]
            container.register(SyntheticService.self, name: names[index]) { r in
                SyntheticService(index: index, dependencies: needs.map { r.require(SyntheticService.self, name: names[$0]) })
            }
        }
        return ContainerGraph(root: roots.map { container.require(SyntheticService.self, name: names[$0]) }, container: container)
    }
}
