import Foundation
import LowbandDeterminism
import LowbandShaper
import LowbandTransport
import LowbandWire

/// Records what a link tells its delegate, with the scheduler's time.
final class RecordingDelegate: FrameLinkDelegate {
    struct Received: Equatable {
        var time: Duration
        var frame: Frame
    }

    var received: [Received] = []
    var closes: [(time: Duration, error: (any Error)?)] = []
    /// Answer every request with a response carrying the same payload.
    var echoes = false
    var onFrame: ((any FrameLink, Frame) -> Void)?
    var onClose: (() -> Void)?

    var frames: [Frame] { received.map(\.frame) }

    func link(_ link: any FrameLink, didReceive frame: Frame) {
        received.append(Received(time: link.scheduler.now, frame: frame))
        if echoes, !frame.flags.contains(.response) {
            link.send(Frame(flags: .response, command: frame.command, sequence: frame.sequence, payload: frame.payload))
        }
        onFrame?(link, frame)
    }

    func linkDidClose(_ link: any FrameLink, error: (any Error)?) {
        closes.append((link.scheduler.now, error))
        onClose?()
    }

    /// The code of the only close's error, if it was a transport or wire error.
    var closeCode: String? {
        guard closes.count == 1, let error = closes[0].error else { return nil }
        if let error = error as? TransportError { return error.code.name }
        if let error = error as? WireError { return error.code.name }
        return "\(error)"
    }
}

/// Keeps accepted links and gives each a recording delegate.
final class RecordingAcceptor: FrameLinkAcceptor {
    var links: [any FrameLink] = []
    var delegates: [RecordingDelegate] = []
    var echoes: Bool
    var onAccept: ((any FrameLink) -> Void)?

    init(echoes: Bool = false) {
        self.echoes = echoes
    }

    func accept(_ link: any FrameLink) {
        let delegate = RecordingDelegate()
        delegate.echoes = echoes
        link.delegate = delegate
        links.append(link)
        delegates.append(delegate)
        onAccept?(link)
    }
}

/// Connects and returns the link (with a recording delegate) once the scheduler has run.
func connect(_ connector: any FrameConnector, on scheduler: VirtualScheduler) throws -> (link: any FrameLink, delegate: RecordingDelegate) {
    var result: Result<any FrameLink, any Error>?
    let delegate = RecordingDelegate()
    connector.connect { outcome in
        if case .success(let link) = outcome { link.delegate = delegate }
        result = outcome
    }
    while result == nil, scheduler.nextDeadline != nil {
        scheduler.advance(to: scheduler.nextDeadline!)
    }
    guard let result else { throw TransportError(.invalidState, "the connect never completed") }
    return (try result.get(), delegate)
}

/// A payload of `count` bytes that LZ4 cannot shrink, fixed by `seed`.
func noise(_ count: Int, seed: UInt64 = 1) -> [UInt8] {
    var generator = SeededGenerator(seed: seed)
    return (0 ..< count).map { _ in UInt8.random(in: 0 ... 255, using: &generator) }
}

enum Profiles {
    /// The repository's `profiles/` directory.
    static let directory: String = {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("profiles").path
    }()

    static func shipped(_ name: String) throws -> NetworkProfile {
        try NetworkProfile.load(named: name, searchPath: [directory])
    }

    static func yaml(_ text: String, name: String = "test") throws -> NetworkProfile {
        try NetworkProfile(yaml: text, name: name)
    }
}
