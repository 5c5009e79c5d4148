import LowbandDeterminism

/// A generated service graph: `size` services, each depending on up to `maximumDependencies`
/// earlier ones, drawn from a seeded generator, so the same seed gives the same graph in every
/// process.
///
/// Services depend only on earlier ones, so the graph is acyclic and index order is a valid
/// construction order. Dependencies lean towards recent services (half are drawn from the last
/// 16), as layers of an app depend mostly on the layer below. Roots are the services nothing
/// depends on; an app resolves those.
public struct SyntheticGraph: Hashable, Sendable {
    public let size: Int
    /// For each service, the indices of its dependencies, ascending.
    public let dependencies: [[Int]]
    /// Services no other service depends on, ascending.
    public let roots: [Int]
    /// The registration name of each service in a container (`s0`, `s1`, …).
    public let names: [String]

    /// - Precondition: `size >= 1` and `maximumDependencies >= 0`.
    public init(size: Int, maximumDependencies: Int = 3, seed: UInt64) {
        precondition(size >= 1, "a synthetic graph needs at least one service, got size \(size)")
        precondition(maximumDependencies >= 0, "maximumDependencies must not be negative, got \(maximumDependencies)")
        var random = SeededGenerator(seed: seed)
        var dependencies: [[Int]] = []
        dependencies.reserveCapacity(size)
        var isDependedOn = [Bool](repeating: false, count: size)
        for index in 0 ..< size {
            let count = Int(random.next(upperBound: UInt64(min(maximumDependencies, index) + 1)))
            var chosen: Set<Int> = []
            while chosen.count < count {
                let recent = random.next() & 1 == 0
                let window = recent ? min(index, 16) : index
                chosen.insert(index - 1 - Int(random.next(upperBound: UInt64(window))))
            }
            let sorted = chosen.sorted()
            for dependency in sorted { isDependedOn[dependency] = true }
            dependencies.append(sorted)
        }
        self.size = size
        self.dependencies = dependencies
        self.roots = (0 ..< size).filter { !isDependedOn[$0] }
        self.names = (0 ..< size).map { "s\($0)" }
    }

    /// Edges in the graph (dependency links).
    public var edgeCount: Int { dependencies.reduce(0) { $0 + $1.count } }
}

/// One service of a synthetic graph: an object holding its dependencies, as a real service
/// holds the services it was given.
public final class SyntheticService {
    public let index: Int
    public let dependencies: [SyntheticService]

    public init(index: Int, dependencies: [SyntheticService]) {
        self.index = index
        self.dependencies = dependencies
    }
}
