/// The answer a failed lookup gets (the profile's `dns.failure`): NXDOMAIN from slirp's
/// forwarder, made from the query itself — addresses, ports and question kept and swapped, no
/// answer, authority or additional records. Every offset is checked against the frame's length.
enum DNSFailure {
    /// The NXDOMAIN reply to `query` (an Ethernet frame with IPv4 UDP to 10.0.2.3:53); nil when
    /// its question cannot be read.
    static func nxdomain(answering query: [UInt8]) -> [UInt8]? {
        let ip = ShellNetwork.ethernetHeader
        guard DNSDelay.isQueryToForwarder(query) else { return nil }
        let udp = ip + Int(query[ip] & 0x0f) * 4
        let dns = udp + 8
        guard query.count >= dns + 12 else { return nil }
        // The question: labels to the root, then type and class.
        var cursor = dns + 12
        while true {
            guard cursor < query.count else { return nil }
            let length = Int(query[cursor])
            if length == 0 { break }
            guard length < 64 else { return nil }
            cursor += 1 + length
        }
        let questionEnd = cursor + 1 + 4
        guard questionEnd <= query.count else { return nil }

        var reply = Array(query[0 ..< questionEnd])
        // Ethernet and IP addresses, UDP ports: swapped.
        for index in 0 ..< 6 { reply.swapAt(index, index + 6) }
        for index in 0 ..< 4 { reply.swapAt(ip + 12 + index, ip + 16 + index) }
        reply.swapAt(udp, udp + 2)
        reply.swapAt(udp + 1, udp + 3)
        // IP: total length, a fresh TTL, the header checksum again.
        let ipLength = questionEnd - ip
        reply[ip + 2] = UInt8(ipLength >> 8)
        reply[ip + 3] = UInt8(ipLength & 0xff)
        reply[ip + 8] = 64
        reply[ip + 10] = 0
        reply[ip + 11] = 0
        var sum: UInt32 = 0
        for index in stride(from: ip, to: udp, by: 2) { sum += UInt32(reply[index]) << 8 | UInt32(reply[index + 1]) }
        while sum > 0xffff { sum = (sum & 0xffff) + (sum >> 16) }
        let checksum = ~UInt16(sum)
        reply[ip + 10] = UInt8(checksum >> 8)
        reply[ip + 11] = UInt8(checksum & 0xff)
        // UDP: its length; checksum 0 (none, which IPv4 allows).
        let udpLength = questionEnd - udp
        reply[udp + 4] = UInt8(udpLength >> 8)
        reply[udp + 5] = UInt8(udpLength & 0xff)
        reply[udp + 6] = 0
        reply[udp + 7] = 0
        // DNS: a response (QR), recursion available, RCODE 3; one question, nothing else.
        reply[dns + 2] = 0x80 | (query[dns + 2] & 0x01)
        reply[dns + 3] = 0x80 | 0x03
        for index in dns + 6 ..< dns + 12 { reply[index] = 0 }
        return reply
    }
}
