import LowbandDeterminism
import LowbandTransport
import LowbandWire

/// Puts every link the server accepts behind an ``ObservedServerLink``, so the run's ledger
/// sees the frames as the server does.
final class ObservingAcceptor: FrameLinkAcceptor {
    private let inner: any FrameLinkAcceptor
    private let ledger: any ServerLedger

    init(inner: any FrameLinkAcceptor, ledger: any ServerLedger) {
        self.inner = inner
        self.ledger = ledger
    }

    func accept(_ link: any FrameLink) {
        inner.accept(ObservedServerLink(inner: link, ledger: ledger))
    }
}

/// The server's end of one link, telling the ledger what it receives and sends.
final class ObservedServerLink: FrameLink, FrameLinkDelegate {
    weak var delegate: (any FrameLinkDelegate)?
    private let inner: any FrameLink
    private let ledger: any ServerLedger

    init(inner: any FrameLink, ledger: any ServerLedger) {
        self.inner = inner
        self.ledger = ledger
        inner.delegate = self
    }

    var scheduler: any Scheduler { inner.scheduler }

    var peerAddress: String? { inner.peerAddress }

    func send(_ frame: Frame) {
        inner.send(frame)
        ledger.serverSent(frame, link: ObjectIdentifier(self), at: scheduler.now)
    }

    func close() {
        inner.close()
    }

    func link(_ link: any FrameLink, didReceive frame: Frame) {
        ledger.serverReceived(frame, link: ObjectIdentifier(self), at: scheduler.now)
        delegate?.link(self, didReceive: frame)
    }

    func linkDidClose(_ link: any FrameLink, error: (any Error)?) {
        ledger.serverLinkClosed(ObjectIdentifier(self))
        delegate?.linkDidClose(self, error: error)
    }
}
