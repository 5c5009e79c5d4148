import Foundation
package import LowbandMessagePack

/// A user's payloads, read from files: JSON documents (one per file, or many separated by
/// whitespace or line breaks) or MessagePack values (a file that does not open with JSON), each
/// kept as the MessagePack value it is.
///
/// Bounded: at most ``maximumFileBytes`` per file and ``maximumPayloads`` in all.
package struct PayloadSet: Sendable {
    /// The largest file read.
    package static let maximumFileBytes = 64 * 1024 * 1024
    /// The most payloads kept.
    package static let maximumPayloads = 100_000

    /// One payload and where it came from.
    package struct Payload: Sendable {
        /// The file and the document's number in it (`a.json#3`).
        package var origin: String
        /// The file, as named.
        package var file: String
        /// The value.
        package var value: MessagePackValue
    }

    /// A file that cannot be read as payloads: the file, where, and what was wrong.
    package struct Failure: Error, Sendable, CustomStringConvertible {
        /// `file: document N: …` or `file: …`.
        package var description: String
    }

    /// The payloads, in file order.
    package private(set) var payloads: [Payload] = []
    /// The files read, in order, each once.
    package private(set) var fileNames: [String] = []
    /// How many files they came from.
    package private(set) var files = 0

    /// An empty set.
    package init() {}

    /// Reads every payload of `path`.
    ///
    /// - Throws: ``Failure`` naming the file and the document that is neither JSON nor
    ///   MessagePack, a file that cannot be read or is too large, or too many payloads.
    package mutating func add(file path: String) throws(Failure) {
        let bytes: [UInt8]
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { throw Failure(description: "\(path): no such file") }
        guard !isDirectory.boolValue else { throw Failure(description: "\(path): a directory, not a file of payloads") }
        do {
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
            defer { try? handle.close() }
            let data = try handle.read(upToCount: Self.maximumFileBytes + 1) ?? Data()
            guard data.count <= Self.maximumFileBytes else {
                throw Failure(description: "\(path): larger than \(Self.maximumFileBytes / (1024 * 1024)) MiB")
            }
            bytes = Array(data)
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure(description: "\(path): cannot read: \((error as NSError).localizedDescription)")
        }
        let first = bytes.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        // A file named as JSON is read as JSON whatever it opens with, so a broken one is named
        // by line and column instead of being taken for MessagePack.
        let namedJSON = [".json", ".jsonl", ".ndjson"].contains { path.lowercased().hasSuffix($0) }
        let isJSON = namedJSON || (first.map { "{[\"".utf8.contains($0) } ?? true)
        var count = 0
        // A file is taken whole or not at all: a bad document leaves none of its file behind.
        var found: [Payload] = []
        if isJSON {
            var parser = MessagePackJSONParser(bytes)
            while true {
                let next: MessagePackValue?
                do {
                    next = try parser.next()
                } catch {
                    throw Failure(description: "\(path):\(error.line):\(error.column): document \(count + 1) is not JSON: \(error.message)")
                }
                guard let value = next else { break }
                count += 1
                found.append(Payload(origin: "\(path)#\(count)", file: path, value: value))
            }
        } else {
            var reader = MessagePackReader(bytes)
            while !reader.isAtEnd {
                do {
                    let value = try reader.readValue()
                    count += 1
                    found.append(Payload(origin: "\(path)#\(count)", file: path, value: value))
                } catch {
                    throw Failure(description: "\(path): value \(count + 1) is neither JSON nor MessagePack: \(error)")
                }
            }
        }
        guard count > 0 else { throw Failure(description: "\(path): no payload in it (an empty file)") }
        for payload in found { try append(payload) }
        files += 1
        fileNames.append(path)
    }

    private mutating func append(_ payload: Payload) throws(Failure) {
        guard payloads.count < Self.maximumPayloads else {
            throw Failure(description: "\(payload.origin): more than \(Self.maximumPayloads) payloads; compare a sample of them")
        }
        payloads.append(payload)
    }
}
