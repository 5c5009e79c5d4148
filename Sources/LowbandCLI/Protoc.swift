import Foundation
import LowbandCodecs

/// A user's `.proto` compiled by protoc into the descriptor set ``ProtoSchema`` reads.
enum Protoc {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The schema of `path`, imports resolved from its directory.
    ///
    /// - Throws: ``Failure`` with protoc's first message when the file does not compile, or
    ///   when protoc is not installed.
    static func schema(of path: String) throws -> ProtoSchema {
        try ProtoSchema(descriptorSet: try descriptorSet(of: path))
    }

    /// The descriptor set protoc compiles `path` into, imports resolved from its directory.
    ///
    /// - Throws: as ``schema(of:)``.
    static func descriptorSet(of path: String) throws -> [UInt8] {
        let search = ProcessInfo.processInfo.environment["PATH"]?.split(separator: ":").map(String.init) ?? ["/usr/bin"]
        guard let protoc = search.map({ $0 + "/protoc" }).first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw Failure(description: "\(path): protoc is not installed (Debian: apt-get install protobuf-compiler; scripts/setup.sh installs it)")
        }
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("lowband-\(UUID().uuidString).pb")
        defer { try? FileManager.default.removeItem(at: output) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: protoc)
        let directory = (path as NSString).deletingLastPathComponent
        process.arguments = ["--include_imports", "--descriptor_set_out=\(output.path)", "-I", directory.isEmpty ? "." : directory, path]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let first = message.split(whereSeparator: \.isNewline).first.map(String.init) ?? "protoc exited with status \(process.terminationStatus)"
            throw Failure(description: "\(path) does not compile: \(first)")
        }
        return Array(try Data(contentsOf: output))
    }
}
