extension NetworkShaper {
    /// Down during every outage window (a blackout or a handover), up between them. Reading the
    /// outage schedule draws nothing new: windows are a fixed function of the seed.
    public mutating func reachability(at now: ShaperInstant) -> ShaperReachability {
        let time = now.nanoseconds
        guard let clear = outages.clear(from: time) else { return .down(until: .never) }
        if clear > time { return .down(until: ShaperInstant(nanoseconds: clear)) }
        return .up(until: outages.nextStart(after: time).map { ShaperInstant(nanoseconds: $0) })
    }
}
