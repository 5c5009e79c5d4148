public import LowbandDeterminism
import LowbandWire

/// The persistent task mechanism: runs the stored tasks when their dependencies are done and a
/// session is up, and resumes them after a restart.
///
/// Sends of one chat go out one at a time, oldest first, so the server stores them in the
/// order they were written; a send waits for its upload; an upload resumes from the offset the
/// server acknowledged (`uploadStatus`, then `uploadChunk` from there). Tasks whose request
/// failed in transit stay pending and run again after the next login (or after a back-off
/// while the session stays up); tasks the server refused fail for good, with their dependents.
/// Confined to its scheduler.
public final class Outbox {
    /// Receives task events (sent, uploaded, failed); held weakly.
    public weak var observer: (any OutboxObserver)?
    /// The tasks in the cache.
    public let store: OutboxStore
    private let sender: any RequestSender
    private let scheduler: any Scheduler
    private let configuration: OutboxConfiguration
    private var generator: SeededGenerator
    private let log: ClientLog
    private var running: Set<Int64> = []
    private var retryTimer: (at: Duration, work: ScheduledWork)?
    private var started = false

    /// An outbox that runs `store`'s tasks through `sender` on `scheduler`, drawing retry jitter
    /// from `generator`. Nothing runs before ``start()``. Use it on `scheduler` only.
    public init(store: OutboxStore, sender: any RequestSender, scheduler: any Scheduler, configuration: OutboxConfiguration = OutboxConfiguration(), generator: SeededGenerator, log: ClientLog) {
        self.store = store
        self.sender = sender
        self.scheduler = scheduler
        self.configuration = configuration
        self.generator = generator
        self.log = log
    }

    /// Tasks with a request on the wire.
    public var runningCount: Int { running.count }

    /// Picks up the stored tasks; they run whenever a session is up.
    public func start() {
        started = true
        pump()
    }

    /// Stops starting tasks and cancels the retry timer; requests on the wire complete, stored
    /// tasks stay for the next ``start()``.
    public func stop() {
        started = false
        if let retryTimer { scheduler.cancel(retryTimer.work) }
        retryTimer = nil
    }

    /// Stores a message (and its attachment's upload) and starts it when it can.
    @discardableResult
    public func enqueueMessage(chatID: Int64, text: String, attachment: OutgoingAttachment? = nil) throws(ClientError) -> OutboxTask {
        let tasks: [OutboxTask]
        do {
            tasks = try store.enqueueMessage(chatID: chatID, text: text, attachment: attachment, storedAt: scheduler.now)
        } catch {
            throw ClientError(.database, "cannot store the message for chat \(chatID): \(error)")
        }
        for task in tasks.reversed() { emit(.stored(task)) }
        pump()
        return tasks[0]
    }

    /// A session is up: run what waits for the network.
    public func connectionDidLogIn() {
        pump()
    }

    /// Puts a failed task back in the queue with its client id unchanged.
    public func retry(taskID: Int64) throws(ClientError) {
        do {
            try store.retry(taskID: taskID)
        } catch {
            throw ClientError(.database, "cannot requeue task \(taskID): \(error)")
        }
        pump()
    }

    // MARK: - Scheduling

    /// Starts every task that can run now.
    public func pump() {
        guard started, sender.isLoggedIn else { return }
        let tasks: [OutboxTask]
        do {
            tasks = try store.pendingTasks()
        } catch {
            record(.error, "databaseFailed", "cannot read the outbox: \(error)")
            return
        }
        var uploads = tasks.count { $0.kind == .upload && running.contains($0.id) }
        var chatsWithEarlierSend: Set<Int64> = []
        for task in tasks {
            switch task.kind {
            case .upload:
                guard !running.contains(task.id), uploads < configuration.maximumConcurrentUploads else { continue }
                uploads += 1
                startUpload(task)
            case .send:
                // One send per chat at a time, oldest first; a send that fails here does not
                // hold up the ones after it.
                let chatID = task.chatID ?? 0
                guard !chatsWithEarlierSend.contains(chatID) else { continue }
                if running.contains(task.id) {
                    chatsWithEarlierSend.insert(chatID)
                    continue
                }
                switch dependencyState(of: task) {
                case .done(let attachment):
                    chatsWithEarlierSend.insert(chatID)
                    startSend(task, attachment: attachment)
                case .waiting:
                    chatsWithEarlierSend.insert(chatID)
                case .failed(let error):
                    fail(task, error)
                }
            }
        }
    }

    private enum Dependency {
        case done(Attachment?)
        case waiting
        case failed(ClientError)
    }

    private func dependencyState(of task: OutboxTask) -> Dependency {
        guard let dependencyID = task.dependsOn else { return .done(nil) }
        let dependency: OutboxTask?
        do {
            dependency = try store.task(id: dependencyID)
        } catch {
            return .waiting
        }
        guard let dependency else {
            return .failed(ClientError(.inconsistentState, "task \(task.id) depends on task \(dependencyID), which is missing"))
        }
        switch dependency.state {
        case .pending: return .waiting
        case .failed: return .failed(ClientError(.server, "task \(task.id) depends on task \(dependencyID), which failed: \(dependency.lastError ?? "")"))
        case .done:
            var attachment = dependency.attachment
            attachment?.url = dependency.url ?? ""
            return .done(attachment)
        }
    }

    // MARK: - Sends

    private func startSend(_ task: OutboxTask, attachment: Attachment?) {
        guard let chatID = task.chatID, let clientID = task.clientID else {
            fail(task, ClientError(.inconsistentState, "send task \(task.id) has no chat or client id"))
            return
        }
        running.insert(task.id)
        emit(.sending(task))
        let request = SendMessageRequest(chatID: chatID, clientID: clientID, text: task.text ?? "", attachments: attachment.map { [$0] } ?? [])
        sender.send(request, timeout: configuration.requestTimeout) { [weak self] result in
            guard let self else { return }
            self.running.remove(task.id)
            switch result {
            case .success(let reply):
                do {
                    try self.store.completeSend(taskID: task.id, message: reply.message)
                } catch {
                    self.record(.error, "databaseFailed", "cannot record the sent message of task \(task.id): \(error)")
                    return
                }
                self.emit(.sent(taskID: task.id, message: reply.message))
                self.pump()
            case .failure(let error):
                self.attemptFailed(task, error)
            }
        }
    }

    // MARK: - Uploads

    private func startUpload(_ task: OutboxTask) {
        guard let uploadID = task.uploadID else {
            fail(task, ClientError(.inconsistentState, "upload task \(task.id) has no upload id"))
            return
        }
        running.insert(task.id)
        emit(.sending(task))
        // Ask first: the server may hold more than we recorded (we crashed before saving its
        // acknowledgement) or less (it lost a piece); its offset is the truth.
        sender.send(UploadStatusRequest(uploadID: uploadID), timeout: configuration.requestTimeout) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let reply):
                self.uploadAcknowledged(task, reply)
            case .failure(let error) where error.serverReply?.code == .notFound:
                self.sendPiece(task, from: 0)
            case .failure(let error):
                self.running.remove(task.id)
                self.attemptFailed(task, error)
            }
        }
    }

    private func uploadAcknowledged(_ task: OutboxTask, _ reply: UploadChunkReply) {
        let total = task.totalSize ?? 0
        do {
            if reply.complete {
                try store.completeUpload(taskID: task.id, url: reply.url ?? "", size: total)
            } else {
                try store.recordUploadProgress(taskID: task.id, acknowledgedOffset: reply.acknowledgedOffset)
            }
        } catch {
            running.remove(task.id)
            record(.error, "databaseFailed", "cannot record upload progress of task \(task.id): \(error)")
            return
        }
        if reply.complete {
            running.remove(task.id)
            emit(.uploaded(taskID: task.id, url: reply.url ?? ""))
            pump()
        } else {
            emit(.uploadProgress(taskID: task.id, acknowledgedOffset: reply.acknowledgedOffset, totalSize: total))
            sendPiece(task, from: reply.acknowledgedOffset)
        }
    }

    private func sendPiece(_ task: OutboxTask, from offset: Int64) {
        guard let uploadID = task.uploadID, let total = task.totalSize else { return }
        let data: [UInt8]
        do {
            data = Array(try store.uploadBytes(taskID: task.id, offset: offset, length: configuration.uploadChunkSize))
        } catch {
            running.remove(task.id)
            record(.error, "databaseFailed", "cannot read the bytes of upload task \(task.id): \(error)")
            return
        }
        guard !data.isEmpty || offset >= total else {
            running.remove(task.id)
            fail(task, ClientError(.inconsistentState, "upload task \(task.id) has no bytes at offset \(offset) of \(total)"))
            return
        }
        let request = UploadChunkRequest(uploadID: uploadID, offset: offset, totalSize: total, data: .init(data))
        sender.send(request, timeout: configuration.requestTimeout) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let reply):
                self.uploadAcknowledged(task, reply)
            case .failure(let error):
                self.running.remove(task.id)
                self.attemptFailed(task, error)
            }
        }
    }

    // MARK: - Failures

    private func attemptFailed(_ task: OutboxTask, _ error: ClientError) {
        // The engine is shutting down: the task stays as it is, for the next start.
        guard started, error.code != .stopped else { return }
        guard error.isTransient else {
            fail(task, error)
            pump()
            return
        }
        do {
            try store.recordAttempt(taskID: task.id, error: error)
        } catch {
            record(.error, "databaseFailed", "cannot count the attempt of task \(task.id): \(error)")
        }
        emit(.willRetry(taskID: task.id, error: error))
        // Lost with the link: the next login pumps. Failed while the session is up (the
        // server was busy, too many requests): try again after a back-off, so a slow server
        // is not hammered. One timer serves every task; an earlier retry moves it forward.
        guard sender.isLoggedIn else { return }
        let delay = configuration.retryBackoff.delay(attempt: task.attempts, using: &generator)
        let at = scheduler.now + delay
        if let retryTimer {
            guard at < retryTimer.at else { return }
            scheduler.cancel(retryTimer.work)
        }
        let work = scheduler.schedule(at: at) { [weak self] in
            self?.retryTimer = nil
            self?.pump()
        }
        retryTimer = (at, work)
    }

    private func fail(_ task: OutboxTask, _ error: ClientError) {
        do {
            try store.fail(taskID: task.id, error: error)
        } catch {
            record(.error, "databaseFailed", "cannot mark task \(task.id) failed: \(error)")
            return
        }
        record(.warning, "taskFailed", "task \(task.id) (\(task.kind.rawValue)) failed: \(error)")
        emit(.failed(taskID: task.id, error: error))
    }

    private func emit(_ event: OutboxEvent) {
        observer?.outbox(self, didEmit: event)
    }

    private func record(_ level: ClientLogEntry.Level, _ event: String, _ message: String) {
        log.record(ClientLogEntry(time: scheduler.now, level: level, event: event, message: message))
    }
}
