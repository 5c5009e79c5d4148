import StartupBench
import Testing

@Suite struct SyntheticGraphTests {
    @Test func theSameSeedGivesTheSameGraph() {
        #expect(SyntheticGraph(size: 1000, seed: 7) == SyntheticGraph(size: 1000, seed: 7))
        #expect(SyntheticGraph(size: 1000, seed: 7) != SyntheticGraph(size: 1000, seed: 8))
    }

    @Test(arguments: [30, 100, 1000])
    func servicesDependOnAtMostKEarlierOnes(size: Int) {
        let graph = SyntheticGraph(size: size, maximumDependencies: 3, seed: 7)
        var dependedOn = Set<Int>()
        for (index, dependencies) in graph.dependencies.enumerated() {
            #expect(dependencies.count <= 3)
            #expect(dependencies == Array(Set(dependencies)).sorted())
            #expect(dependencies.allSatisfy { $0 < index })
            dependedOn.formUnion(dependencies)
        }
        #expect(graph.roots == (0 ..< size).filter { !dependedOn.contains($0) })
        #expect(graph.edgeCount > size, "about 1.5 dependencies per service on average")
    }

    @Test(arguments: [30, 100, 1000])
    func handAndSwinjectBuildTheSameGraph(size: Int) {
        let graph = SyntheticGraph(size: size, seed: 7)
        let hand = graph.wiredByHand()
        let container = graph.wiredBySwinject().root
        #expect(ObjectGraphShape(of: hand, modules: ["StartupBench"]) == ObjectGraphShape(of: container, modules: ["StartupBench"]))
        #expect(edges(from: hand, size: size) == graph.dependencies)
        #expect(edges(from: container, size: size) == graph.dependencies)
    }

    @Test func aTransientGraphHasAnotherShape() {
        // Services rebuilt for each dependent (what a wrong scope does) are told apart.
        let graph = SyntheticGraph(size: 30, seed: 7)
        func rebuilt(_ index: Int) -> SyntheticService {
            SyntheticService(index: index, dependencies: graph.dependencies[index].map(rebuilt))
        }
        let transient = graph.roots.map(rebuilt)
        #expect(ObjectGraphShape(of: transient, modules: ["StartupBench"]) != ObjectGraphShape(of: graph.wiredByHand(), modules: ["StartupBench"]))
    }

    /// Each service's dependency indices, checking that each index is one object.
    private func edges(from roots: [SyntheticService], size: Int) -> [[Int]] {
        var found = [[Int]?](repeating: nil, count: size)
        var objects: [Int: ObjectIdentifier] = [:]
        var pending = roots
        while let service = pending.popLast() {
            let identifier = ObjectIdentifier(service)
            if let known = objects[service.index] {
                #expect(known == identifier, "service \(service.index) exists twice")
                continue
            }
            objects[service.index] = identifier
            found[service.index] = service.dependencies.map(\.index)
            pending.append(contentsOf: service.dependencies)
        }
        return found.map { $0 ?? [-1] }
    }
}
