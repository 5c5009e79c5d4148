/// The shape of an object graph: which objects (by type) it holds and which stored property of
/// which object points at which other object, with shared objects shared.
///
/// Two graphs have the same shape when a walk from their roots meets objects of the same types
/// in the same order and finds the same references between them: same services, same
/// dependencies, and one instance wherever the other has one (a container that made two logs
/// where the hand wiring shares one gives a different shape). The walk reads stored properties
/// through `Mirror`, private ones included, descending into value types and into objects of the
/// modules named in `modules`; objects of other modules (GRDB's queue, the scheduler) are
/// leaves, compared by type and identity only. Closures are opaque to `Mirror`.
public struct ObjectGraphShape: Hashable, Sendable, CustomStringConvertible {
    public struct Edge: Hashable, Sendable {
        public var from: Int
        /// The property path from the object to the reference, e.g. `machine.generator`.
        public var path: String
        public var to: Int
    }

    /// Type names of the objects, in the order the walk met them.
    public private(set) var nodes: [String] = []
    public private(set) var edges: [Edge] = []

    /// Walks the graph from `root`, an object or a value holding objects (an array of roots).
    public init(of root: Any, modules: Set<String>) {
        var indices: [ObjectIdentifier: Int] = [:]
        var pending: [(value: Any, owner: Int, path: String)] = [(root, -1, "")]
        while let (value, owner, path) = pending.popLast() {
            let mirror = Mirror(reflecting: value)
            var descend = true
            var nextOwner = owner
            var nextPath = path
            if mirror.displayStyle == .class {
                let object = value as AnyObject
                let identifier = ObjectIdentifier(object)
                if let known = indices[identifier] {
                    edges.append(Edge(from: owner, path: path, to: known))
                    continue
                }
                let index = nodes.count
                let typeName = String(reflecting: type(of: object))
                indices[identifier] = index
                nodes.append(typeName)
                edges.append(Edge(from: owner, path: path, to: index))
                descend = modules.contains(String(typeName.prefix { $0 != "." }))
                nextOwner = index
                nextPath = ""
            }
            guard descend else { continue }
            var children: [(value: Any, owner: Int, path: String)] = []
            var level: Mirror? = mirror
            while let current = level {
                for (offset, child) in current.children.enumerated() {
                    let label = child.label ?? "\(offset)"
                    children.append((child.value, nextOwner, nextPath.isEmpty ? label : nextPath + "." + label))
                }
                level = current.superclassMirror
            }
            // Reversed, so the walk visits children in declaration order.
            pending.append(contentsOf: children.reversed())
        }
    }

    /// Objects per type name, sorted by name.
    public var typeCounts: [(type: String, count: Int)] {
        Dictionary(grouping: nodes, by: { $0 }).map { ($0.key, $0.value.count) }.sorted { $0.type < $1.type }
    }

    public var description: String {
        edges.map { edge in
            let from = edge.from < 0 ? "root" : "\(edge.from):\(nodes[edge.from])"
            return "\(from) .\(edge.path) -> \(edge.to):\(nodes[edge.to])"
        }.joined(separator: "\n")
    }
}
