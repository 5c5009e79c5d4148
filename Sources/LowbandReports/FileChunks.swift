#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a file in bounded chunks, so a reader can refuse an oversized file before holding it.
enum FileChunks {
    static let chunkSize = 64 * 1024

    struct ReadError: Error, CustomStringConvertible {
        var description: String
    }

    /// Calls `body` with each chunk of the file at `path`, in order.
    ///
    /// - Throws: ``ReadError`` (`cannot open: …`, `cannot read: …`, with the system's reason) or
    ///   what `body` throws.
    static func forEach(in path: String, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else {
            throw ReadError(description: "cannot open: \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = read(descriptor, buffer.baseAddress, buffer.count)
            if count < 0 {
                if errno == EINTR { continue }
                throw ReadError(description: "cannot read: \(String(cString: strerror(errno)))")
            }
            if count == 0 { return }
            try body(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        }
    }
}
