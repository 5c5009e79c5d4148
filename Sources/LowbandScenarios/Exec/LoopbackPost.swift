import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// One HTTP/1.0 request (a POST, or another method) to a server on 127.0.0.1 (a seed's `lowband shell` API), blocking: the
/// answer's first 4 KB, status line first. Reads and writes give up after 10 s each.
enum LoopbackPost {
    static let answerLimit = 4_096

    static func post(port: Int, path: String, body: String, method: String = "POST") throws -> String {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw ShellLinkError(description: "socket: \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        var limit = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw ShellLinkError(description: "cannot reach 127.0.0.1:\(port): \(String(cString: strerror(errno)))") }
        let request = Array("\(method) \(path) HTTP/1.0\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)".utf8)
        var sent = 0
        while sent < request.count {
            let count = request[sent...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { throw ShellLinkError(description: "writing to 127.0.0.1:\(port): \(String(cString: strerror(errno)))") }
            sent += count
        }
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1_024)
        while answer.count < answerLimit {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            answer += buffer[..<count]
            // The status line is all that is read; a server keeping the connection open is not waited for.
            if answer.count >= 4, answer.indices.dropLast(3).contains(where: { answer[$0 ..< $0 + 4] == [13, 10, 13, 10] }) { break }
        }
        return String(decoding: answer.prefix(answerLimit), as: UTF8.self)
    }
}
