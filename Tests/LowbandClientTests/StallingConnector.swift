import LowbandDeterminism
import LowbandTransport
import LowbandWire

/// Opens links through another connector and can make a link's way up stuck: what the client
/// sends is held back for good while what the server sends still arrives, as on a TCP
/// connection deep in retransmission back-off. Links opened later are healthy.
final class StallingConnector: FrameConnector {
    private let inner: any FrameConnector
    private(set) var links: [StallingLink] = []

    init(inner: any FrameConnector) {
        self.inner = inner
    }

    func connect(_ completion: @escaping (Result<any FrameLink, any Error>) -> Void) {
        inner.connect { [weak self] result in
            switch result {
            case .success(let link):
                let wrapped = StallingLink(inner: link)
                self?.links.append(wrapped)
                completion(.success(wrapped))
            case .failure(let error):
                completion(.failure(error))
            }
        }
    }

    /// From now on nothing the newest link's client end sends gets through.
    func stallNewestLinkUpstream() {
        links.last?.isStalled = true
    }
}

/// A link whose sends can be held back; frames and bytes from the far side pass through.
final class StallingLink: FrameLink, FrameLinkDelegate {
    weak var delegate: (any FrameLinkDelegate)?
    private let inner: any FrameLink
    var isStalled = false
    /// Frames held back since the link stalled.
    private(set) var held: [Frame] = []

    init(inner: any FrameLink) {
        self.inner = inner
        inner.delegate = self
    }

    var scheduler: any Scheduler { inner.scheduler }

    func send(_ frame: Frame) {
        guard !isStalled else {
            held.append(frame)
            return
        }
        inner.send(frame)
    }

    func close() {
        inner.close()
    }

    func link(_ link: any FrameLink, didReceive frame: Frame) {
        delegate?.link(self, didReceive: frame)
    }

    func linkDidClose(_ link: any FrameLink, error: (any Error)?) {
        delegate?.linkDidClose(self, error: error)
    }
}
