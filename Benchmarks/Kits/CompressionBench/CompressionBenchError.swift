/// Why a compression workload or the `lz4 -b` comparison failed: what, where, and what to do.
///
/// The code is an extensible struct rather than an enum, so new codes never break callers.
public struct CompressionBenchError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let name: String
        private init(_ name: String) { self.name = name }
        public var description: String { name }

        /// A codec reported an error while compressing or decompressing.
        public static let codecFailed = Code("codecFailed")
        /// Decompressed bytes differ from the original input.
        public static let roundTripMismatch = Code("roundTripMismatch")
        /// The `lz4` executable is not installed or not in `PATH`.
        public static let lz4Missing = Code("lz4Missing")
        /// `lz4 -b` exited with an error or could not be started.
        public static let lz4Failed = Code("lz4Failed")
        /// `lz4 -b` printed something the parser does not understand.
        public static let unparsableOutput = Code("unparsableOutput")
        /// A size, level or duration outside what the workload supports.
        public static let invalidArgument = Code("invalidArgument")
    }

    public var code: Code
    /// What was wrong, in words, with the names and numbers involved.
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code): \(message)" }
}
