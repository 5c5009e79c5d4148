import LowbandShaper
import Testing

/// Bytes on the air are not payload bytes: each segment carries its headers, payload is cut to
/// the MSS, and the receiver's acknowledgements use the other direction's rate.
@Suite struct OverheadTests {
    private func profile(down: Int64 = 1_000_000, up: Int64 = 1_000_000, delay: Duration = .milliseconds(100), overhead: PacketOverhead = .tcpIPv4) -> NetworkProfile {
        var profile = TestProfiles.symmetric(TestProfiles.link(rate: .bitsPerSecond(down), delay: delay, queue: 4_000_000))
        profile.uplink.rate = .bitsPerSecond(up)
        profile.overhead = overhead
        return profile
    }

    /// Bulk goodput at MTU 1500 with 52-byte headers: rate × 1448/1500.
    @Test func bulkGoodputIsTheRateTimesTheMSSOverTheMTU() throws {
        var link = VirtualLink(profile())
        let id = link.open().id
        let bytes = 1448 * 2000
        link.send(bytes, on: id)
        link.run()
        #expect(link.delivered() == bytes)
        let first = try #require(link.deliveries.first)
        let last = try #require(link.deliveries.last)
        #expect(first.bytes == 1448, "a segment carries the MSS, 1500 − 52 bytes")
        // From the first segment's arrival to the last one's, 1999 segments crossed the bottleneck.
        let seconds = (last.time - first.time).inSeconds
        let goodput = Double(1999 * 1448 * 8) / seconds
        let expected = 1_000_000.0 * 1448 / 1500
        #expect(abs(goodput / expected - 1) < 0.01, "goodput \(goodput) bit/s, expected \(expected)")
    }

    /// A 40-byte chat message at 60 kbit/s takes (40 + 52) × 8 / 60,000 s on the bottleneck.
    @Test func aSmallMessageCarriesItsHeaders() throws {
        for (overhead, header) in [(PacketOverhead.tcpIPv4, 52), (.tcpIPv6, 72), (.none, 0)] {
            var link = VirtualLink(profile(down: 60_000, delay: .milliseconds(200), overhead: overhead))
            let id = link.open().id
            link.submit(40, on: id)
            link.run()
            let delivery = try #require(link.deliveries.first)
            let expected = Duration.nanoseconds(Int64(((Double(40 + header) * 8 / 60_000) * 1e9).rounded(.up))) + .milliseconds(200)
            #expect(abs((delivery.time - .zero - expected).inSeconds) < 1e-6, "\(overhead): arrived at \(delivery.time), expected \(expected)")
        }
    }

    /// A TLS record's header, IV and tag ride on the segment that carries the record's bytes.
    @Test func aTLSRecordAddsItsOverheadToEachWrite() throws {
        var overhead = PacketOverhead.tcpIPv4
        overhead.tlsRecordBytes = 22
        var link = VirtualLink(profile(down: 60_000, delay: .zero, overhead: overhead))
        let id = link.open().id
        link.submit(40, on: id)
        link.run()
        let delivery = try #require(link.deliveries.first)
        let expected = Double(40 + 52 + 22) * 8 / 60_000
        #expect(abs((delivery.time - .zero).inSeconds - expected) < 1e-6)
    }

    /// A download's acknowledgements (52 bytes per two segments) take a share of a slow uplink:
    /// an upload next to it takes longer than alone, by the acknowledgements' time.
    @Test func theUplinkCarriesTheDownloadsAcknowledgements() throws {
        func uploadTime(withDownload: Bool) throws -> (upload: Double, ackBytes: Int) {
            var link = VirtualLink(profile(down: 1_000_000, up: 60_000, delay: .milliseconds(50)))
            let download = link.open().id
            let upload = link.open().id
            if withDownload { link.send(1448 * 1000, on: download, .downstream) }
            link.send(1448 * 20, on: upload, .upstream)
            link.run()
            let last = try #require(link.deliveries.last { $0.id == upload && $0.direction == .upstream })
            return ((last.time - .zero).inSeconds, link.shaper.acknowledgementBytes(.upstream))
        }
        let alone = try uploadTime(withDownload: false)
        let shared = try uploadTime(withDownload: true)
        // 1000 downstream segments: 500 acknowledgements of 52 bytes on the uplink. The upload's
        // own 20 segments get 10 acknowledgements on the downlink, none on the uplink.
        #expect(alone.ackBytes == 0)
        #expect(shared.ackBytes >= 500 * 52 && shared.ackBytes <= 501 * 52, "\(shared.ackBytes) bytes of acknowledgements up")
        // The upload alone: 20 × 1500 bytes at 60 kbit/s is 4 s (+ 50 ms). With the download,
        // the acknowledgements sent meanwhile share the uplink.
        #expect(abs(alone.upload - (4.0 + 0.05)) < 0.01, "alone \(alone.upload) s")
        #expect(shared.upload > alone.upload * 1.1, "with a download \(shared.upload) s, alone \(alone.upload) s")
    }

    /// A lone segment is acknowledged after the delayed-ACK timer unless the reply carries it.
    @Test func aLoneSegmentsAcknowledgementWaitsOrRidesOnTheReply() {
        var link = VirtualLink(profile(delay: .milliseconds(100)))
        let id = link.open().id
        link.submit(100, on: id, .upstream)
        link.run()
        #expect(link.shaper.acknowledgementBytes(.downstream) == 52, "one delayed acknowledgement")
        var reply = VirtualLink(profile(delay: .milliseconds(100)))
        let other = reply.open().id
        reply.submit(100, on: other, .upstream)
        // The request arrives after ~101 ms; the reply leaves within the 40 ms delayed-ACK time.
        reply.run(until: .milliseconds(110))
        reply.submit(100, on: other, .downstream)
        reply.run()
        #expect(reply.shaper.acknowledgementBytes(.downstream) == 0, "the reply carried the acknowledgement")
    }
}
