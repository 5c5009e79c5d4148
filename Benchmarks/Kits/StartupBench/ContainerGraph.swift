public import Swinject

/// A graph resolved from a Swinject container, together with the container.
///
/// An app keeps its container for the whole run (screens are resolved later), so the wiring
/// benchmarks hand it back instead of letting its teardown count as start-up work.
public struct ContainerGraph<Root> {
    public let root: Root
    public let container: Container

    public init(root: Root, container: Container) {
        self.root = root
        self.container = container
    }
}
