/// The family of the next value in a MessagePack stream, read from its first byte(s).
///
/// `nil`, `bool`, `int` (signed or unsigned, any width), `float` (32 or 64 bits), `string`,
/// `binary`, `array`, `map`, `extension` (an application type) or `timestamp` (extension type -1).
public enum MessagePackKind: String, Sendable, Hashable {
    case `nil`, bool, int, float, string, binary, array, map, `extension`, timestamp
}
