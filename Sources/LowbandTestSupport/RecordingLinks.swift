import Foundation
package import LowbandDeterminism
import LowbandProfiles
package import LowbandShaper
package import LowbandTransport
package import LowbandWire

/// Records what a link tells its delegate, with the scheduler's time.
package final class RecordingDelegate: FrameLinkDelegate {
    package struct Received: Equatable {
        package var time: Duration
        package var frame: Frame
    }

    package var received: [Received] = []
    package var closes: [(time: Duration, error: (any Error)?)] = []
    /// Answer every request with a response carrying the same payload.
    package var echoes = false
    package var onFrame: ((any FrameLink, Frame) -> Void)?
    package var onClose: (() -> Void)?

    package init() {}

    package var frames: [Frame] { received.map(\.frame) }

    package func link(_ link: any FrameLink, didReceive frame: Frame) {
        received.append(Received(time: link.scheduler.now, frame: frame))
        if echoes, !frame.flags.contains(.response) {
            link.send(Frame(flags: .response, command: frame.command, sequence: frame.sequence, payload: frame.payload))
        }
        onFrame?(link, frame)
    }

    package func linkDidClose(_ link: any FrameLink, error: (any Error)?) {
        closes.append((link.scheduler.now, error))
        onClose?()
    }

    /// The code of the only close's error, if it was a transport or wire error.
    package var closeCode: String? {
        guard closes.count == 1, let error = closes[0].error else { return nil }
        if let error = error as? TransportError { return error.code.name }
        if let error = error as? WireError { return error.code.name }
        return "\(error)"
    }
}

/// Keeps accepted links and gives each a recording delegate.
package final class RecordingAcceptor: FrameLinkAcceptor {
    package var links: [any FrameLink] = []
    package var delegates: [RecordingDelegate] = []
    package var echoes: Bool
    package var onAccept: ((any FrameLink) -> Void)?

    package init(echoes: Bool = false) {
        self.echoes = echoes
    }

    package func accept(_ link: any FrameLink) {
        let delegate = RecordingDelegate()
        delegate.echoes = echoes
        link.delegate = delegate
        links.append(link)
        delegates.append(delegate)
        onAccept?(link)
    }
}

/// Connects and returns the link (with a recording delegate) once the scheduler has run.
package func connect(_ connector: any FrameConnector, on scheduler: VirtualScheduler) throws -> (link: any FrameLink, delegate: RecordingDelegate) {
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
package func noise(_ count: Int, seed: UInt64 = 1) -> [UInt8] {
    var generator = SeededGenerator(seed: seed)
    return (0 ..< count).map { _ in UInt8.random(in: 0 ... 255, using: &generator) }
}

package enum Profiles {
    /// The repository's `profiles/` directory.
    package static let directory: String = {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("profiles").path
    }()

    package static func shipped(_ name: String) throws -> NetworkProfile {
        try NetworkProfile.load(named: name, searchPath: [directory])
    }

    package static func yaml(_ text: String, name: String = "test") throws -> NetworkProfile {
        try NetworkProfile(yaml: text, name: name)
    }
}
