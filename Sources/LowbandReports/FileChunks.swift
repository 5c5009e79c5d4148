#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a file in bounded chunks, so a reader can refuse an oversized file before holding it.
/// The one chunked reader of the package: `lowband`'s commands read their files and stdin with it.
package enum FileChunks {
    package static let chunkSize = 64 * 1024

    package struct ReadError: Error, CustomStringConvertible {
        /// `open` or `read`.
        package var operation: String
        /// The system's reason.
        package var reason: String
        package var description: String { "cannot \(operation): \(reason)" }
    }

    /// Calls `body` with each chunk of the file at `path`, in order.
    ///
    /// - Throws: ``ReadError`` (`cannot open: …`, `cannot read: …`, with the system's reason) or
    ///   what `body` throws.
    package static func forEach(in path: String, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else {
            throw ReadError(operation: "open", reason: String(cString: strerror(errno)))
        }
        defer { close(descriptor) }
        try forEach(descriptor: descriptor, body)
    }

    /// Calls `body` with each chunk read from `descriptor` until its end; the caller owns it.
    package static func forEach(descriptor: Int32, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = read(descriptor, buffer.baseAddress, buffer.count)
            if count < 0 {
                if errno == EINTR { continue }
                throw ReadError(operation: "read", reason: String(cString: strerror(errno)))
            }
            if count == 0 { return }
            try body(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        }
    }
}
