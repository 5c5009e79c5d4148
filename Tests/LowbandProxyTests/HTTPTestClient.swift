import Foundation
import NIOCore

/// A tiny HTTP/1.1 client over a raw NIO socket: one request per connection
/// (`Connection: close`), the whole response read to the end, chunked bodies decoded.
enum HTTPTestClient {
    struct Response {
        var status: Int
        var headers: [(String, String)]
        var body: [UInt8]

        var text: String { String(decoding: body, as: UTF8.self) }

        func header(_ name: String) -> String? {
            headers.first { $0.0.lowercased() == name.lowercased() }?.1
        }

        /// The body as a JSON object (nil when it is not one).
        var object: [String: Any]? {
            (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any]
        }

        var array: [Any]? {
            (try? JSONSerialization.jsonObject(with: Data(body))) as? [Any]
        }
    }

    static func request(
        _ method: String, _ path: String, port: Int, body: String? = nil, headers extra: [(String, String)] = []
    ) async throws -> Response {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        for (name, value) in extra { head += "\(name): \(value)\r\n" }
        if let body { head += "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n" }
        head += "\r\n" + (body ?? "")
        let client = try await TestPeers.connect(port: port)
        let raw = try await client.executeThenClose { inbound, outbound in
            try await outbound.write(ByteBuffer(string: head))
            var iterator = inbound.makeAsyncIterator()
            return try await TestPeers.readToEnd(from: &iterator)
        }
        return try parse(Array(raw.readableBytesView))
    }

    static func parse(_ raw: [UInt8]) throws -> Response {
        let separator = Array("\r\n\r\n".utf8)
        guard let end = raw.indices.first(where: { raw[$0...].starts(with: separator) }) else {
            throw TestPeers.PeerError(description: "no end of headers in \(raw.count) bytes")
        }
        let lines = String(decoding: raw[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else {
            throw TestPeers.PeerError(description: "bad status line '\(lines[0])'")
        }
        let headers = lines.dropFirst().compactMap { line -> (String, String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        var body = Array(raw[(end + 4)...])
        if headers.contains(where: { $0.0.lowercased() == "transfer-encoding" && $0.1.lowercased() == "chunked" }) {
            body = try dechunk(body)
        }
        return Response(status: status, headers: headers, body: body)
    }

    private static func dechunk(_ bytes: [UInt8]) throws -> [UInt8] {
        var result: [UInt8] = []
        var index = 0
        while index < bytes.count {
            guard let lineEnd = bytes[index...].indices.first(where: { bytes[$0] == 0x0D }),
                let size = Int(String(decoding: bytes[index..<lineEnd], as: UTF8.self), radix: 16)
            else {
                throw TestPeers.PeerError(description: "bad chunk header")
            }
            if size == 0 { break }
            let start = lineEnd + 2
            result += bytes[start..<(start + size)]
            index = start + size + 2
        }
        return result
    }
}
