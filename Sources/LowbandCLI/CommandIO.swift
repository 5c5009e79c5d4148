import ArgumentParser
import LowbandReports

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Unbuffered, binary-safe input and output for the commands, in bounded chunks, and the one
/// error-line format they all share: `lowband <command>: error: <what went wrong>`.
enum CommandIO {
    static let chunkSize = FileChunks.chunkSize

    struct IOError: Error, CustomStringConvertible {
        var description: String
    }

    /// Calls `body` with each chunk of the file at `path`, or of stdin when `path` is nil or "-".
    static func forEachInputChunk(from path: String? = nil, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        var descriptor = STDIN_FILENO
        if let path, path != "-" {
            descriptor = open(path, O_RDONLY)
            guard descriptor >= 0 else {
                throw IOError(description: "cannot open \(path): \(SystemErrorText.errno())")
            }
        }
        defer { if descriptor != STDIN_FILENO { close(descriptor) } }
        do {
            try FileChunks.forEach(descriptor: descriptor, body)
        } catch let error as FileChunks.ReadError {
            throw IOError(description: "cannot read \(path ?? "stdin"): \(error.reason)")
        }
    }

    /// All of stdin (or the file at `path`).
    static func readAll(from path: String? = nil) throws -> [UInt8] {
        var input: [UInt8] = []
        try forEachInputChunk(from: path) { input.append(contentsOf: $0) }
        return input
    }

    static func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try write($0) }
    }

    static func write(_ text: String) throws {
        try write(Array(text.utf8))
    }

    static func write(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32 = STDOUT_FILENO) throws {
        var offset = 0
        while offset < bytes.count {
            let written = systemWrite(descriptor, bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw IOError(description: "cannot write \(descriptor == STDOUT_FILENO ? "stdout" : "stderr"): \(SystemErrorText.errno())")
            }
            offset += written
        }
    }

    /// Prints `<command>: warning: <text>` as one line on stderr.
    static func warn(_ text: String, command: String) {
        let line = Array("\(command): warning: \(text)\n".utf8)
        line.withUnsafeBytes { _ = try? write($0, to: STDERR_FILENO) }
    }

    /// Prints `<command>: error: <error>` as one line on stderr.
    static func reportError(_ error: any Error, command: String) {
        let text = "\(error)".split(whereSeparator: \.isNewline).joined(separator: " ")
        let line = Array("\(command): error: \(text)\n".utf8)
        line.withUnsafeBytes { _ = try? write($0, to: STDERR_FILENO) }
    }

    /// Reports `message` and returns the exit code to throw: one line, status 1, no trace.
    static func failure(_ message: String, command: String) -> ExitCode {
        failure(IOError(description: message), command: command)
    }

    /// Reports `error` and returns the exit code to throw: one line, status 1 (or `status`), no trace.
    static func failure(_ error: any Error, command: String, status: Int32 = 1) -> ExitCode {
        reportError(error, command: command)
        return status == 1 ? ExitCode.failure : ExitCode(status)
    }

    private static func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
        #if canImport(Darwin)
            Darwin.write(descriptor, buffer, count)
        #elseif canImport(Musl)
            Musl.write(descriptor, buffer, count)
        #else
            Glibc.write(descriptor, buffer, count)
        #endif
    }
}
