import LowbandShaper
import Testing

/// A shaper's trace placed on its owner's timeline and numbering.
@Suite struct ShaperTraceFrameTests {
    @Test func aFirstShaperNumbersFromOneOnTheOwnersClock() {
        let recorder = ShaperTraceRecorder()
        let sink = FramedTraceSink(recorder, frame: .start)
        sink.record(ShaperEvent(time: ShaperInstant(nanoseconds: 5), kind: .open, connection: ConnectionID(index: 0)))
        sink.record(ShaperEvent(time: ShaperInstant(nanoseconds: 9), kind: .outageStart))
        #expect(recorder.events.map { $0.connection?.index } == [1, nil])
        #expect(recorder.events.map(\.time.nanoseconds) == [5, 9])
    }

    @Test func aSwitchedShaperCarriesTheOpenConnectionsAndCountsOn() {
        // Connections 2 and 5 were open at the switch at 3 s; the owner's next number is 7.
        let frame = ShaperTraceFrame(origin: ShaperInstant(nanoseconds: 3_000_000_000), carried: [2, 5], firstNew: 7)
        #expect((0 ..< 4).map { frame.number(of: ConnectionID(index: $0)) } == [2, 5, 7, 8])
        let placed = frame.place(ShaperEvent(time: ShaperInstant(nanoseconds: 250), kind: .deliver, connection: ConnectionID(index: 1)))
        #expect(placed.time.nanoseconds == 3_000_000_250)
        #expect(placed.connection?.index == 5)
        // "Never" stays never.
        #expect(frame.place(ShaperEvent(time: .never, kind: .outageStart)).time == .never)
    }
}
