/// Why a profile (or a trace it names) could not be loaded: the file, the key, the reason.
///
/// The description reads `FILE:LINE: KEY: REASON`, e.g.
/// `profiles/edge.yaml:9: downlink.loss: 150% is above 100%; …`.
public struct ProfileError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The reason of a ``ProfileError``; compare with the static members, e.g. `.unknownKey`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code's stable name, e.g. `unknownKey`.
        public let name: String
        private init(_ name: String) { self.name = name }
        public var description: String { name }

        /// The file is not valid YAML, or not a mapping at the top.
        public static let invalidYAML = Code("invalidYAML")
        /// A key the format does not have (often a typo).
        public static let unknownKey = Code("unknownKey")
        /// A required figure is absent.
        public static let missingKey = Code("missingKey")
        /// A key appears twice in one mapping.
        public static let duplicateKey = Code("duplicateKey")
        /// A value has the wrong shape, an unknown unit or is out of range.
        public static let invalidValue = Code("invalidValue")
        /// The file cannot be read.
        public static let unreadableFile = Code("unreadableFile")
        /// No profile of that name on the search path.
        public static let profileNotFound = Code("profileNotFound")
        /// A Mahimahi trace file is malformed.
        public static let invalidTrace = Code("invalidTrace")
    }

    /// What kind of fault it is.
    public var code: Code
    /// The profile (or trace) file at fault.
    public var file: String
    /// The path of the key at fault, like `downlink.loss` or `outages[1].every`.
    public var key: String?
    /// The line in the file, counted from 1, when known.
    public var line: Int?
    /// What was wrong and, where it helps, what to write instead.
    public var reason: String

    /// An error in `file`, at `key` and `line` when known, saying in `reason` what was wrong.
    public init(_ code: Code, file: String, key: String? = nil, line: Int? = nil, reason: String) {
        self.code = code
        self.file = file
        self.key = key
        self.line = line
        self.reason = reason
    }

    public var description: String {
        var text = file
        if let line { text += ":\(line)" }
        if let key { text += ": \(key)" }
        return "\(text): \(reason)"
    }
}
