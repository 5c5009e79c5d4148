public import LowbandTransport

/// A connector whose connection attempts never finish: a phone still waiting for its radio.
///
/// Start-up benchmarks start the engine (so the connection really begins connecting) without a
/// server; the attempt stays pending and nothing is scheduled, so repeated iterations leave
/// nothing behind on the scheduler.
public final class OfflineConnector: FrameConnector {
    public private(set) var attempts = 0

    public init() {}

    public func connect(_ completion: @escaping (Result<any FrameLink, any Error>) -> Void) {
        attempts += 1
    }
}
