import LowbandMessagePack

// The pieces the v2 fast-path files are written with.

extension MessagePackReader {
    /// Reads a value that may be nil.
    @inline(__always)
    mutating func readOptional<T>(_ read: (inout MessagePackReader) throws(MessagePackError) -> T) throws(MessagePackError) -> T? {
        try readNilIfPresent() ? nil : try read(&self)
    }

    /// Reads a v2 array header of a `type` value, which must hold at least `required` fields.
    @inline(__always)
    mutating func readFields(required: Int, of type: StaticString) throws(MessagePackError) -> Int {
        let start = offset
        let count = try readArrayHeader()
        guard count >= required else {
            throw MessagePackError(.keyNotFound, "\(type) needs at least \(required) fields; the array holds \(count)", offset: start)
        }
        return count
    }

    /// Skips the fields a later version added after the `known` ones.
    @inline(__always)
    mutating func skipFields(_ count: Int, known: Int) throws(MessagePackError) {
        var extra = count - known
        while extra > 0 {
            try skipValue()
            extra -= 1
        }
    }

    /// Reads an array of integers.
    mutating func readIntegers() throws(MessagePackError) -> [Int64] {
        let count = try readArrayHeader()
        var values: [Int64] = []
        values.reserveCapacity(count)
        for _ in 0 ..< count { values.append(try readInt64()) }
        return values
    }
}

extension MessagePackWriter {
    /// Writes an array of integers.
    mutating func writeIntegers(_ values: [Int64]) throws(MessagePackError) {
        try writeArrayHeader(count: values.count)
        for value in values { write(value) }
    }
}

extension UnsafeMutablePointer {
    /// Initializes the stored property `field` of the uninitialized value here, moving `value`
    /// in: the generated readers fill a value field by field where it will lie, without building
    /// it elsewhere and copying it (see scripts/catalogue.py, `fast`).
    @inline(__always)
    func initialize<Field>(_ field: WritableKeyPath<Pointee, Field>, to value: consuming Field) {
        pointer(to: field).unsafelyUnwrapped.initialize(to: value)
    }
}
