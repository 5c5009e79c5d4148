import FuzzSupport
import LowbandAppEvents

/// App events (`POST /events`, `--events FILE`, `LOWBAND_EVENT` lines): JSON lines read by
/// `AppEventReader` into an `AppEventLog`, then judged by `EventChecker`.
///
/// Bad lines must give an `AppEventReader.Failure` naming a line inside the input; events that
/// read write back to lines that read as the same events; the checker never counts more broken
/// cases than cases.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let perSecond = 1 + Int(input.takeByte())
    let text = String(decoding: input.rest(), as: UTF8.self)
    let lineCount = text.split(separator: "\n", omittingEmptySubsequences: false).count
    let events: [AppEvent]
    do throws(AppEventReader.Failure) {
        events = try AppEventReader.events(text, arrival: .milliseconds(Int64(size)))
    } catch {
        require(error.line >= 1 && error.line <= lineCount, "a failure names line \(error.line) of \(lineCount)")
        return 0
    }
    for event in events {
        do throws(AppEventReader.Failure) {
            let again = try AppEventReader.event(Substring(AppEventReader.line(event)), arrival: event.arrival)
            var expected = event
            // The written line rounds the arrival to the microsecond; the event itself must match.
            expected.arrival = again?.arrival ?? event.arrival
            require(again == expected, "an event changed through its line: \(AppEventReader.line(event))")
        } catch {
            finding("an event's own line does not read back: \(AppEventReader.line(event)): \(error)")
        }
    }
    let log = AppEventLog(limits: .init(perSecond: perSecond, total: 500)) { .seconds(1) }
    let outcome: AppEventLog.Outcome
    do throws(AppEventReader.Failure) {
        outcome = try log.append(events)
    } catch {
        return 0
    }
    require(outcome.accepted + outcome.dropped == events.count && log.events.count == outcome.accepted, "the log lost count of events")
    let book = EventChecker(events: log.events, network: NetworkRecord(), bounds: EventBounds(settle: .seconds(1), liveness: .seconds(1)), end: 3).check()
    for check in book.checks {
        require(check.violations <= check.checked, "\(check.name): \(check.violations) broken in \(check.checked) cases")
    }
    return 0
}
