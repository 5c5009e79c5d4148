import LowbandShaper

/// What the shell reads from a frame's headers: never more than the frame holds.
enum FrameHeaders {
    /// The TCP flow of an Ethernet frame carrying IPv4 TCP, the device's end first (the source
    /// going up, the destination coming down); nil for anything else.
    static func tcpFlow(_ frame: UnsafeRawBufferPointer, _ direction: Direction) -> PacketFlow? {
        let ip = ShellNetwork.ethernetHeader
        guard frame.count >= ip + 20, frame[12] == 0x08, frame[13] == 0x00, frame[ip] >> 4 == 4, frame[ip + 9] == 6 else { return nil }
        let tcp = ip + Int(frame[ip] & 0x0f) * 4
        guard frame.count >= tcp + 4 else { return nil }
        func address(_ offset: Int) -> UInt32 { (offset ..< offset + 4).reduce(0) { $0 << 8 | UInt32(frame[$1]) } }
        func port(_ offset: Int) -> UInt16 { UInt16(frame[offset]) << 8 | UInt16(frame[offset + 1]) }
        let source = (address(ip + 12), port(tcp))
        let destination = (address(ip + 16), port(tcp + 2))
        let (device, remote) = direction == .upstream ? (source, destination) : (destination, source)
        return PacketFlow(transport: 6, deviceAddress: device.0, devicePort: device.1, remoteAddress: remote.0, remotePort: remote.1)
    }
}
