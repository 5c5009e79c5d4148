/// The family of the next value in a MessagePack stream, read from its first byte(s).
public enum MessagePackKind: String, Sendable, Hashable {
    case `nil`, bool, int, float, string, binary, array, map, `extension`, timestamp
}
