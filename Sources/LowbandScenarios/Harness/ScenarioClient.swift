import LowbandClient
import LowbandDeterminism
import LowbandRunReport

/// One client engine of a run and what the scenario needs to know about it: whether it is
/// logged in, and its disconnects and reconnects (marked on the timeline and in the trace).
///
/// A reconnect is a login after a session was lost; the first login of an engine is not one,
/// nor a login after the scenario stopped the engine itself.
final class ScenarioClient: ClientEngineObserver {
    let index: Int
    let userID: Int64
    /// The app's engine; a new one after the app was killed and started again.
    private(set) var engine: ClientEngine
    /// The engine's outbox and connection, kept beside it for ``cappedSizes``.
    private var outbox: Outbox
    private var connection: Connection
    /// The probe that reads ``cappedSizes`` without retaining this client, and which of its
    /// gauges does: told when this client goes.
    var probe: (ResourceProbe, gauge: Int)?
    let connector: GatedConnector
    /// The phone's view of the run's scheduler (skew, suspension).
    let device: DeviceScheduler
    /// Killed and not started again.
    var isDead = false
    /// The scenario's own reaction to the engine's events, called after the bookkeeping.
    var onEvent: ((ClientEvent) -> Void)?
    private(set) var isLoggedIn = false
    private(set) var logins = 0
    private(set) var reconnects = 0
    private(set) var disconnects = 0
    private var lostSession = false
    private let trace: TraceLog
    private let ledger: RunLedger

    init(index: Int, userID: Int64, engine: ClientEngine, connector: GatedConnector, device: DeviceScheduler, trace: TraceLog, ledger: RunLedger) {
        self.index = index
        self.userID = userID
        self.engine = engine
        outbox = engine.outbox
        connection = engine.connection
        self.connector = connector
        self.device = device
        self.trace = trace
        self.ledger = ledger
        engine.addObserver(self)
    }

    deinit {
        if let probe { probe.0.clientGone(gauge: probe.gauge) }
    }

    /// The app was started again with `engine` (a cold start on the same cache).
    func replace(_ engine: ClientEngine) {
        self.engine.removeObserver(self)
        self.engine = engine
        outbox = engine.outbox
        connection = engine.connection
        isLoggedIn = false
        engine.addObserver(self)
    }

    /// The sizes the resource probe reads every second: the outbox's sends running, the
    /// requests in flight on the connection, and the work held while the phone is suspended.
    /// Read from the parts kept here: going through the engine (and weak references to the
    /// client and device) cost more than the reading, 100 clients every simulated second.
    var cappedSizes: (Int, Int, Int) {
        (outbox.runningCount, connection.pendingRequestCount, device.deferredCount)
    }

    func engine(_ engine: ClientEngine, didEmit event: ClientEvent) {
        guard engine === self.engine else { return }
        let now = device.base.now
        ledger.engine(event, client: index, at: now)
        switch event {
        case .synced(let outcome):
            logins += 1
            isLoggedIn = true
            if lostSession {
                lostSession = false
                reconnects += 1
                trace.client(
                    ClientTraceLine(time: now, event: "reconnect", client: index, detail: outcome.wasFullSync ? "full sync" : "delta sync"),
                    timeline: TimelineEvent(seconds: now.seconds, kind: .reconnect, client: index, detail: "logged in again"))
            } else {
                trace.client(ClientTraceLine(time: now, event: "login", client: index, detail: outcome.wasFullSync ? "full sync" : "delta sync"))
            }
        case .disconnected(let error):
            if isLoggedIn {
                isLoggedIn = false
                lostSession = true
                disconnects += 1
                trace.client(
                    ClientTraceLine(time: now, event: "disconnect", client: index, detail: error.code.name),
                    timeline: TimelineEvent(seconds: now.seconds, kind: .disconnect, client: index, detail: error.code.name))
            }
        case .stopped:
            isLoggedIn = false
        case .messageArrived, .outbox:
            break
        }
        onEvent?(event)
    }
}

