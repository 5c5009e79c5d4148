import LowbandMessagePack

/// The value of a required key, or the error that names the key.
@inline(__always)
func required<T>(_ value: T?, _ key: String, mapOffset: Int) throws(MessagePackError) -> T {
    guard let value else { throw MessagePackError.keyNotFound(key, mapOffset: mapOffset) }
    return value
}

extension MessagePackReader {
    /// Reads a value that may be nil: `.some(nil)` for a nil, so a slot of `T??` records that
    /// the key was present.
    @inline(__always)
    mutating func readOptional<T>(_ read: (inout MessagePackReader) throws(MessagePackError) -> T) throws(MessagePackError) -> T? {
        try readNilIfPresent() ? nil : try read(&self)
    }
}

extension MessagePackWriter {
    /// Writes `value` under `name` when it is not nil, as synthesized `encodeIfPresent` does.
    @inline(__always)
    mutating func write<T>(name: StaticString, ifPresent value: T?, _ write: (inout MessagePackWriter, T) throws(MessagePackError) -> Void) throws(MessagePackError) {
        guard let value else { return }
        try self.write(name: name)
        try write(&self, value)
    }
}
