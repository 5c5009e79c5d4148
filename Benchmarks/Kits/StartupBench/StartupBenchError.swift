/// Why a start-up workload could not be prepared or run: what failed, where, and the cause.
public struct StartupBenchError: Error, CustomStringConvertible {
    public var message: String
    /// The file or object concerned.
    public var location: String

    public init(_ message: String, at location: String) {
        self.message = message
        self.location = location
    }

    public var description: String { "\(message) (at \(location))" }
}
