import LowbandBasics
package import LowbandShaper

extension ProxyLinkFigures {
    /// A profile's direction in the units its file uses (`150 kbit/s`, `200 ms`, `1%`); a
    /// trace's rate is its mean.
    package init(_ link: LinkProfile) {
        let bits: Int64?
        let rate: String
        switch link.rate {
        case .bitsPerSecond(let value):
            bits = value
            rate = Units.formatRate(value)
        case .unlimited:
            bits = nil
            rate = "unlimited"
        case .trace(let trace):
            bits = Int64(trace.averageBitsPerSecond.rounded())
            rate = "trace, mean \(Units.formatRate(bits ?? 0))"
        }
        self.init(
            rate: rate, bitsPerSecond: bits, delay: Units.formatDuration(link.delay.nanosecondsClamped), loss: Units.formatPercentage(link.loss.rate),
            queue: Units.formatBytes(Int64(link.queueBytes)), queueBytes: link.queueBytes)
    }
}
