/// An error of the codec benchmark's own code: a protobuf message the model cannot hold, a
/// codec that does not round-trip, a registry with clashing names.
public struct CodecBenchError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure; new codes may be added.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let name: String
        public var description: String { name }
        init(_ name: String) { self.name = name }

        /// A decoded protobuf message has a value the model type has no place for.
        public static let unrepresentable = Code("unrepresentable")
        /// A codec's decode did not give back the value it encoded.
        public static let roundTripMismatch = Code("roundTripMismatch")
        /// Two codecs share a name, or a name is empty or contains `/`.
        public static let invalidCodecName = Code("invalidCodecName")
    }

    public var code: Code
    /// What was wrong, where, and what to do about it.
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code): \(message)" }
}
