/// What a connection's bytes cost on the air beyond their payload: each segment's headers,
/// payload cut to the MSS, a TLS record's overhead, and the receiver's acknowledgements on the
/// other direction's rate.
///
/// Every segment carries `headerBytes` (52 for IPv4 + TCP with timestamps, 72 for IPv6), so a
/// segment's payload is at most the MSS, `mtu − headerBytes` (1448 at MTU 1500), and a 40-byte
/// message takes 92 bytes of the rate. The receiver acknowledges every second segment at once
/// and a lone one after `delayedAck` (RFC 1122 §4.2.3.2, RFC 5681 §4.2; 40 ms is Linux's
/// minimum), unless data going back on the same connection carries the acknowledgement; each
/// acknowledgement is a bare segment of `headerBytes` on the reverse direction's bottleneck,
/// sent ahead of waiting data. A TLS record adds `tlsRecordBytes` (22 for TLS 1.3 with
/// AES-GCM: 5 of header, 1 of content type, 16 of tag) per write of up to 16 KiB, for runs whose
/// client is not encrypted here but would be; on sockets the bytes already are what they are.
public struct PacketOverhead: Sendable, Hashable {
    /// Headers per segment, bytes.
    public var headerBytes: Int
    /// Overhead per TLS record (per write of up to 16 KiB), bytes; 0: no TLS modelled.
    public var tlsRecordBytes: Int
    /// Whether acknowledgements take the reverse direction's rate.
    public var acknowledgements: Bool
    /// How long a lone segment's acknowledgement waits for a second segment or a reply.
    public var delayedAck: Duration

    /// Overhead of `headerBytes` per segment, acknowledgements on, 40 ms delayed ACK, no TLS.
    public init(headerBytes: Int, tlsRecordBytes: Int = 0, acknowledgements: Bool = true, delayedAck: Duration = .milliseconds(40)) {
        self.headerBytes = headerBytes
        self.tlsRecordBytes = tlsRecordBytes
        self.acknowledgements = acknowledgements
        self.delayedAck = delayedAck
    }

    /// Payload only: the model before overhead, and the default of profiles built in code.
    public static let none = PacketOverhead(headerBytes: 0, acknowledgements: false)
    /// IPv4 (20) + TCP (20) + the timestamp option (12): the default of profile files.
    public static let tcpIPv4 = PacketOverhead(headerBytes: 52)
    /// IPv6 (40) + TCP (20) + the timestamp option (12).
    public static let tcpIPv6 = PacketOverhead(headerBytes: 72)

    /// The citation of ``tcpIPv4``, the overhead of a profile file that says nothing about it.
    public static let defaultSource = "default: IPv4 (20 B, RFC 791) + TCP (20 B, RFC 9293) + the timestamp option (12 B, RFC 7323) a segment, as Linux sends by default; an acknowledgement every second segment, a lone one after 40 ms (RFC 1122 §4.2.3.2, RFC 5681 §4.2; 40 ms is Linux's minimum delayed ACK)"

    /// The largest TLS record's payload.
    static let tlsRecordPayload = 16_384

    /// The bytes of TLS records for a write of `bytes`.
    func tlsBytes(forWriteOf bytes: Int) -> Int {
        guard tlsRecordBytes > 0, bytes > 0 else { return 0 }
        return (bytes + Self.tlsRecordPayload - 1) / Self.tlsRecordPayload * tlsRecordBytes
    }
}
