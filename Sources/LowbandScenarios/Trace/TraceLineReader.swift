#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a JSON-lines file one non-empty line at a time, in bounded memory: a chunk buffer and
/// one line of at most ``maximumLineBytes``, so a wrong file (`/dev/zero`, a video) is an error
/// about its first line instead of all of memory.
package final class TraceLineReader {
    /// Trace lines are under 300 bytes; a line longer than this is not a trace.
    static let maximumLineBytes = 64 * 1024

    let path: String
    /// The number of the line last returned, from 1.
    private(set) var lineNumber = 0
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    private var position = 0
    private var ended = false

    /// - Throws: ``TraceDiffError`` naming the file when it cannot be opened.
    package init(path: String) throws(TraceDiffError) {
        self.path = path
        descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else {
            throw TraceDiffError("cannot open \(path): \(String(cString: strerror(errno)))")
        }
    }

    deinit {
        close(descriptor)
    }

    /// The next line with content (without its newline), or nil at the end of the file.
    ///
    /// - Throws: ``TraceDiffError`` `<path>:<line>: …` when reading fails or a line is too long.
    func next() throws(TraceDiffError) -> [UInt8]? {
        var line: [UInt8] = []
        while true {
            if position == buffer.count {
                if ended { break }
                try fill()
                continue
            }
            let rest = buffer[position...]
            if let newline = rest.firstIndex(of: UInt8(ascii: "\n")) {
                line += buffer[position..<newline]
                position = newline + 1
                try checkLength(line)
                lineNumber += 1
                if Self.isBlank(line) {
                    line.removeAll(keepingCapacity: true)
                    continue
                }
                return line
            }
            line += rest
            position = buffer.count
            try checkLength(line)
        }
        guard !line.isEmpty else { return nil }
        lineNumber += 1
        return Self.isBlank(line) ? nil : line
    }

    private func fill() throws(TraceDiffError) {
        buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var count = 0
        repeat {
            count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        } while count < 0 && errno == EINTR
        guard count >= 0 else {
            throw TraceDiffError("\(path): cannot read: \(String(cString: strerror(errno)))")
        }
        buffer.removeLast(buffer.count - count)
        position = 0
        ended = count == 0
    }

    private func checkLength(_ line: [UInt8]) throws(TraceDiffError) {
        guard line.count > Self.maximumLineBytes else { return }
        throw TraceDiffError("\(path):\(lineNumber + 1): a line longer than \(Self.maximumLineBytes / 1024) KiB; is this a trace?")
    }

    private static func isBlank(_ line: [UInt8]) -> Bool {
        line.allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\r") }
    }
}
