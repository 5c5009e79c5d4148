import LowbandShaper

/// What the shell reads of an Ethernet frame carrying an IPv4 TCP segment: never more than the
/// frame holds.
struct TCPSegment {
    static let fin: UInt8 = 0x01
    static let syn: UInt8 = 0x02
    static let rst: UInt8 = 0x04
    static let ack: UInt8 = 0x10

    /// Its flow, the device's end first.
    var flow: PacketFlow
    var seq: UInt32
    var ack: UInt32
    var flags: UInt8
    /// The bytes of data it carries.
    var payload: Int
    /// The Ethernet source and destination addresses (6 bytes each).
    var source: ArraySlice<UInt8>
    var destination: ArraySlice<UInt8>

    /// The sequence number after it: its data, and one each for SYN and FIN.
    var end: UInt32 { seq &+ UInt32(payload) &+ (flags & Self.syn != 0 ? 1 : 0) &+ (flags & Self.fin != 0 ? 1 : 0) }

    func has(_ flag: UInt8) -> Bool { flags & flag != 0 }

    /// The segment of `frame` going `direction`; nil for anything but a whole IPv4 TCP header.
    init?(_ frame: UnsafeRawBufferPointer, _ direction: Direction) {
        let ip = ShellNetwork.ethernetHeader
        guard let flow = FrameHeaders.tcpFlow(frame, direction) else { return nil }
        let ipHeader = Int(frame[ip] & 0x0f) * 4
        let tcp = ip + ipHeader
        guard ipHeader >= 20, frame.count >= tcp + 20 else { return nil }
        func word(_ offset: Int) -> UInt32 { (offset ..< offset + 4).reduce(0) { $0 << 8 | UInt32(frame[$1]) } }
        let total = Int(frame[ip + 2]) << 8 | Int(frame[ip + 3])
        let tcpHeader = Int(frame[tcp + 12] >> 4) * 4
        guard tcpHeader >= 20, total >= ipHeader + tcpHeader, frame.count >= ip + total else { return nil }
        self.flow = flow
        seq = word(tcp + 4)
        ack = word(tcp + 8)
        flags = frame[tcp + 13]
        payload = total - ipHeader - tcpHeader
        let bytes = Array(frame[0 ..< 12])
        destination = bytes[0 ..< 6]
        source = bytes[6 ..< 12]
    }

    /// An Ethernet frame carrying a bare TCP reset (RST and ACK, no data) from `from` to `to`.
    static func reset(
        from: (address: UInt32, port: UInt16), to: (address: UInt32, port: UInt16), seq: UInt32, ack: UInt32,
        source: ArraySlice<UInt8>, destination: ArraySlice<UInt8>
    ) -> [UInt8] {
        var frame = Array(destination) + Array(source) + [0x08, 0x00]
        func put32(_ value: UInt32) { frame += [UInt8(value >> 24), UInt8(value >> 16 & 0xff), UInt8(value >> 8 & 0xff), UInt8(value & 0xff)] }
        func put16(_ value: UInt16) { frame += [UInt8(value >> 8), UInt8(value & 0xff)] }
        // IPv4: 20 bytes, DF, TTL 64, TCP.
        frame += [0x45, 0x00, 0x00, 40, 0x00, 0x00, 0x40, 0x00, 64, 6, 0x00, 0x00]
        put32(from.address)
        put32(to.address)
        let ip = ShellNetwork.ethernetHeader
        let ipSum = checksum(frame[ip ..< ip + 20], initial: 0)
        frame[ip + 10] = UInt8(ipSum >> 8)
        frame[ip + 11] = UInt8(ipSum & 0xff)
        put16(from.port)
        put16(to.port)
        put32(seq)
        put32(ack)
        frame += [0x50, rst | Self.ack, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00]
        // The pseudo-header: both addresses, the protocol and the TCP length.
        var pseudo: UInt32 = 6 + 20
        for address in [from.address, to.address] { pseudo += address >> 16 + address & 0xffff }
        let tcpSum = checksum(frame[ip + 20 ..< ip + 40], initial: pseudo)
        frame[ip + 36] = UInt8(tcpSum >> 8)
        frame[ip + 37] = UInt8(tcpSum & 0xff)
        return frame
    }

    /// The Internet checksum of `bytes` (an even count) added to `initial`.
    static func checksum(_ bytes: ArraySlice<UInt8>, initial: UInt32) -> UInt16 {
        var sum = initial
        var index = bytes.startIndex
        while index + 1 < bytes.endIndex {
            sum += UInt32(bytes[index]) << 8 | UInt32(bytes[index + 1])
            index += 2
        }
        while sum > 0xffff { sum = sum & 0xffff + sum >> 16 }
        return ~UInt16(sum)
    }
}
