import LowbandDeterminism
import LowbandServer
import LowbandTestSupport
import LowbandTransport
import LowbandWire
import Testing

/// A minimal client on a virtual clock: sends requests over a ``FrameConnector``'s link and
/// moves the scheduler until the answer arrives.
final class FrameTestClient: FrameLinkDelegate {
    struct Stuck: Error, CustomStringConvertible {
        var description: String
    }

    let scheduler: VirtualScheduler
    private(set) var link: (any FrameLink)?
    private var sequence: UInt32 = 0
    private var responses: [UInt32: (time: Duration, frame: Frame)] = [:]
    private(set) var pushes: [(time: Duration, frame: Frame)] = []
    private(set) var closes: [(any Error)?] = []

    init(scheduler: VirtualScheduler) {
        self.scheduler = scheduler
    }

    var isConnected: Bool { link != nil }

    /// Connects, moving the clock until the connector answers.
    func connect(_ connector: any FrameConnector) throws {
        var outcome: Result<any FrameLink, any Error>?
        connector.connect { outcome = $0 }
        try run(until: "connected") { outcome != nil }
        let link = try outcome!.get()
        link.delegate = self
        self.link = link
    }

    /// Sends a request; returns its sequence number.
    @discardableResult
    func send<R: WireRequest>(_ request: R) throws -> UInt32 {
        sequence += 1
        try #require(link).send(Frame.request(request, sequence: sequence))
        return sequence
    }

    /// Sends a request and moves the clock until its reply arrives; an error reply is thrown.
    func call<R: WireRequest>(_ request: R) throws -> R.Reply {
        try decode(R.self, response(to: send(request)).frame)
    }

    /// Moves the clock until the response to `sequence` arrives and returns it with its time.
    func response(to sequence: UInt32) throws -> (time: Duration, frame: Frame) {
        try run(until: "response #\(sequence)") { self.responses[sequence] != nil }
        return responses.removeValue(forKey: sequence)!
    }

    func decode<R: WireRequest>(_ request: R.Type, _ frame: Frame) throws -> R.Reply {
        if frame.flags.contains(.error) { throw try frame.decode(ErrorReply.self) }
        return try frame.decode(R.Reply.self)
    }

    /// Moves the clock until `count` pushes have arrived.
    func awaitPushes(_ count: Int) throws {
        try run(until: "\(count) pushes") { self.pushes.count >= count }
    }

    func takePushes() -> [(time: Duration, frame: Frame)] {
        defer { pushes = [] }
        return pushes
    }

    /// Moves the clock (at most ten virtual minutes) until `condition` holds.
    func run(until what: String, _ condition: () -> Bool) throws {
        let limit = scheduler.now + .seconds(600)
        while !condition() {
            guard let next = scheduler.nextDeadline, next <= limit else {
                throw Stuck(description: "waited for \(what) until \(scheduler.now); nothing left to run")
            }
            scheduler.advance(to: next)
        }
    }

    func link(_ link: any FrameLink, didReceive frame: Frame) {
        if frame.flags.contains(.push) {
            pushes.append((scheduler.now, frame))
        } else {
            responses[frame.sequence] = (scheduler.now, frame)
        }
    }

    func linkDidClose(_ link: any FrameLink, error: (any Error)?) {
        closes.append(error)
        self.link = nil
    }
}
