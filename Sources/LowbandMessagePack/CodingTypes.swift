/// What the Codable encoder and decoder look up once instead of on every value.
enum CodingTypes {
    /// Whether `[CodingUserInfoKey: any Sendable]` and `[CodingUserInfoKey: Any]` are one type at
    /// run time, as they are: `Sendable` is a marker protocol, with no run-time form of its own.
    static let userInfoIsShared = ObjectIdentifier([CodingUserInfoKey: any Sendable].self) == ObjectIdentifier([CodingUserInfoKey: Any].self)

    // The arrays whose values are read and written without a coder of their own. `[Int64].self`
    // is generic metadata, which the runtime looks up in its cache at every use: those lookups
    // were about 5 % of decoding a one-message push (perf, issue 13).
    static let int64Array = ObjectIdentifier([Int64].self)
    static let stringArray = ObjectIdentifier([String].self)
    static let intArray = ObjectIdentifier([Int].self)

    /// `userInfo` as the `[CodingUserInfoKey: Any]` that `Encoder.userInfo` and `Decoder.userInfo`
    /// hand out.
    ///
    /// The conversion the compiler writes for `as` builds a new dictionary and hashes every key
    /// again, about 6 % of encoding or decoding a push (perf, issue 13); the dictionary is
    /// reused as it is when the two types are one, which ``userInfoIsShared`` checked.
    static func userInfo(_ userInfo: [CodingUserInfoKey: any Sendable]) -> [CodingUserInfoKey: Any] {
        guard userInfoIsShared else { return userInfo }
        return unsafeBitCast(userInfo, to: [CodingUserInfoKey: Any].self)
    }
}
