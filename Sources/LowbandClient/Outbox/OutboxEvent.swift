public import LowbandWire

/// Something the outbox did. Events marked durable are reported after their transaction
/// committed: a crash after the event cannot undo it.
public enum OutboxEvent: Hashable, Sendable {
    /// Durable: the task, with its client id, is stored.
    case stored(OutboxTask)
    /// A request for the task is going out (attempt `attempts + 1`).
    case sending(OutboxTask)
    /// Durable: the server acknowledged `acknowledgedOffset` of `totalSize` bytes.
    case uploadProgress(taskID: Int64, acknowledgedOffset: Int64, totalSize: Int64)
    /// Durable: the upload is complete.
    case uploaded(taskID: Int64, url: String)
    /// Durable: the server stored the message; it is in the cache.
    case sent(taskID: Int64, message: Message)
    /// Durable (the attempt count): the attempt failed and will be retried.
    case willRetry(taskID: Int64, error: ClientError)
    /// Durable: the task failed for good.
    case failed(taskID: Int64, error: ClientError)
}

/// Receives the outbox's events, on its scheduler.
public protocol OutboxObserver: AnyObject {
    /// A task of `outbox` was stored, sent, progressed, retried or failed (`event`).
    func outbox(_ outbox: Outbox, didEmit event: OutboxEvent)
}
