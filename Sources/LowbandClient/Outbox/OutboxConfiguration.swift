/// Limits of the outbox; every argument has a default.
public struct OutboxConfiguration: Hashable, Sendable {
    /// Bytes per `uploadChunk` piece (well under the 1 MiB frame limit).
    public var uploadChunkSize: Int
    /// Uploads running at once.
    public var maximumConcurrentUploads: Int
    /// Timeout of each outbox request.
    public var requestTimeout: Duration
    /// Delay before retrying a task whose request failed while the session stayed up.
    public var retryBackoff: Backoff

    /// A configuration; the size and the concurrency are raised to at least 1.
    public init(
        uploadChunkSize: Int = 32 * 1024,
        maximumConcurrentUploads: Int = 1,
        requestTimeout: Duration = .seconds(30),
        retryBackoff: Backoff = Backoff(initialDelay: .seconds(1), maximumDelay: .seconds(60))
    ) {
        self.uploadChunkSize = max(1, uploadChunkSize)
        self.maximumConcurrentUploads = max(1, maximumConcurrentUploads)
        self.requestTimeout = requestTimeout
        self.retryBackoff = retryBackoff
    }
}
