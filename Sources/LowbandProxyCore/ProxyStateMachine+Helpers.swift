import LowbandShaper

/// The machine's small jobs: counting, reading in place, toxics' rolls, events, the output,
/// the shaper's timeline.
extension ProxyStateMachine {
    /// `Direction.allCases`, kept: the synthesized one builds a new array at every call, and the
    /// step and the reading decision loop over both directions at every event.
    static let directions: [Direction] = Direction.allCases

    mutating func countDropped(_ bytes: Int, _ direction: Direction) {
        if direction == .upstream {
            statistics.droppedUpstreamBytes += bytes
        } else {
            statistics.droppedDownstreamBytes += bytes
        }
    }

    /// Reads a connection where it is stored. The dictionary's getter would copy the whole
    /// `ConnectionState` (retaining every queue it holds) just to read a field; the hot paths
    /// read through here instead.
    mutating func inPlace<Result>(_ index: [Int: ConnectionState].Index, _ body: (inout ConnectionState) -> Result) -> Result {
        body(&connections.values[index])
    }

    mutating func makeStage(_ toxic: Toxic, at now: ShaperInstant) -> ToxicStage {
        // Validated when added, so the effect always parses.
        let effect = (try? ToxicEffect(toxic)) ?? .latency(latency: .zero, jitter: .zero)
        return ToxicStage(name: toxic.name, effect: effect, active: roll(toxic.toxicity), at: now)
    }

    mutating func roll(_ toxicity: Double) -> Bool {
        if toxicity >= 1 { return true }
        if toxicity <= 0 { return false }
        return Double(random.next() >> 11) * 0x1p-53 < toxicity
    }

    mutating func emit(
        _ kind: ProxyEvent.Kind, _ now: ShaperInstant, connection: Int? = nil, direction: Direction? = nil,
        bytes: Int? = nil, detail: String? = nil
    ) {
        output.events.append(ProxyEvent(time: now - .zero, kind: kind, connection: connection, direction: direction, bytes: bytes, detail: detail))
    }

    func local(_ instant: ShaperInstant) -> ShaperInstant {
        ShaperInstant(nanoseconds: instant.nanoseconds - shaperOrigin.nanoseconds)
    }

    /// Saturates: a shaper says "never" with the largest instant (an outage without end).
    func global(_ instant: ShaperInstant) -> ShaperInstant {
        let (sum, overflow) = instant.nanoseconds.addingReportingOverflow(shaperOrigin.nanoseconds)
        return ShaperInstant(nanoseconds: overflow ? .max : sum)
    }

    func isPartitioned(_ direction: Direction) -> Bool {
        forced != nil || (!partitioned.isEmpty && partitioned.contains(direction))
    }

    /// Hands over what the event asks of the I/O side and starts a new output.
    mutating func takeOutput() -> ProxyOutput {
        // Most events settle with nothing to do: hand back an empty output then, which
        // allocates nothing.
        guard !output.isEmpty else { return ProxyOutput() }
        outputGeneration += 1
        var taken = ProxyOutput()
        swap(&taken, &output)
        return taken
    }

    /// The position of the connection's work in the current output, added when first touched.
    mutating func workSlot(_ index: [Int: ConnectionState].Index) -> Int {
        // Read in place (an rvalue `connections.values[index]` copies the whole connection).
        let (generation, current) = inPlace(index) { ($0.workGeneration, $0.workSlot) }
        if generation == outputGeneration { return current }
        let slot = output.work.count
        output.work.append(SocketWork(number: connections.keys[index]))
        connections.values[index].workGeneration = outputGeneration
        connections.values[index].workSlot = slot
        return slot
    }

    /// Changes the connection's work in the current output.
    mutating func work(_ index: [Int: ConnectionState].Index, _ change: (inout SocketWork) -> Void) {
        let slot = workSlot(index)
        change(&output.work[slot])
    }
}
