public import LowbandWire

/// Sends requests for the outbox; ``Connection`` is the product's.
public protocol RequestSender: AnyObject {
    /// A session is logged in, so requests can go out.
    var isLoggedIn: Bool { get }
    /// Sends `request` and calls `completion` on the sender's scheduler with the reply or a
    /// ``ClientError``; `timeout` nil means the sender's default request timeout.
    func send<R: WireRequest>(_ request: R, timeout: Duration?, completion: @escaping (Result<R.Reply, ClientError>) -> Void)
}

extension Connection: RequestSender {}
