/// Lets another thread read a finished run's objects (its context, ledger, server and clients)
/// while the run's own thread reads them too, in ``RunDriver/finish(partial:drain:)``.
///
/// Unchecked: it is safe because nothing writes those objects between ``BackgroundWork``'s start
/// and the `value()` the run's thread waits on. The simulation is paused (its one thread is the
/// one finishing), the checks only read (the caches through their own serialized queues), and
/// the engines stop only after the wait. The trace log has its own lock.
struct FinishedRunReader<Value>: @unchecked Sendable {
    let value: Value

    init(_ value: Value) {
        self.value = value
    }
}
