import Foundation
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif
import LowbandAppEvents
import LowbandProcess
import LowbandProxyCore
import LowbandShaper

/// `lowband explore --exec CMD --shell`: each seed's command runs in a `lowband shell` of its own,
/// a child process, so that every destination it reaches crosses the seed's packet link.
///
/// A child, not the shell library in this process: a shell takes SIGINT, SIGTERM and SIGHUP for
/// its command and ignores SIGPIPE (process-wide), and its loop holds a thread for the whole
/// session. As a child each seed has its own namespace, signals and loop, `--jobs` of them run
/// side by side, and a seed past `--timeout` ends with one SIGKILL: the namespace dies with the
/// shell (its PID 1 is gone when the lifeline closes), whatever its command started inside.
///
/// The child reports through the channels a user has too: its `--api` takes the forced outages
/// (`POST /outage`), its `--trace` holds every decision of the link, read into the session's
/// record once it ended, and `--unshaped-port` lets the events the command posts to
/// `$LOWBAND_HOST:PORT` (the host's loopback) reach the run's sink beside the link, as the
/// upstream sessions' events do (they are what is observed, not the app's traffic).
package enum ExecShell {
    /// The name the record and the faults give the shell's one link.
    package static let linkName = "shell"
    /// The host's loopback as the namespace sees it (libslirp's host address).
    static let hostAddress = "10.0.2.2"
    /// Decisions kept from one trace: outages, drops, resets (the deliveries are not kept).
    static let maximumEvents = 200_000

    /// `lowband shell`'s arguments for one seed.
    static func arguments(_ options: ExecOptions, seed: UInt64, trace: String, eventsPort: Int) -> [String] {
        [
            "shell", "--profile", options.profileName, "--seed", String(seed), "--trace", trace, "--api", "127.0.0.1:0",
            "--unshaped-port", String(eventsPort), "--quiet", "--", "/bin/sh", "-c", options.command,
        ]
    }

    /// The port of the child's API once it announced it on stderr, and when (the link starts
    /// just after); nil when the child ended first (no user namespaces: its stderr says why).
    static func awaitAPI(_ child: ChildProcess, clock: @Sendable () -> Duration, within limit: Duration) async -> (port: Int, at: Duration)? {
        let started = clock()
        while clock() - started < limit {
            let text = child.stderrText
            if let range = text.range(of: "API on http://127.0.0.1:") {
                let digits = text[range.upperBound...].prefix { $0.isNumber }
                if let port = Int(digits), (1 ... 65535).contains(port) { return (port, clock()) }
            }
            if child.status != nil { return nil }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return nil
    }

    /// When the trace's link started, on CLOCK_MONOTONIC (its first line says), in nanoseconds.
    static func linkStart(trace: String) -> Int64? {
        guard let handle = FileHandle(forReadingAtPath: trace) else { return nil }
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: 4_096), let text = String(data: head, encoding: .utf8),
            let first = text.split(separator: "\n").first, first.contains("\"event\":\"link\""),
            let range = first.range(of: "started at CLOCK_MONOTONIC ")
        else { return nil }
        return Int64(first[range.upperBound...].prefix { $0.isNumber })
    }

    /// CLOCK_MONOTONIC now, in nanoseconds (the shell's clock).
    static func monotonicNow() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }

    /// The link's decisions in `trace` as the session's record takes a proxy's: outages (a
    /// forced one names the fault whose request it followed, the nearest asked within 0.5 s),
    /// drops with their cause, NAT expiries; and each TCP connection's life as the shell saw it
    /// (opened, connected, its data delivered or dropped, closed, reset by the link), by its
    /// number. A segment's drop (`detail`: `packet CAUSE`) is not bytes discarded for good, as
    /// a proxy's drop is: TCP sends them again, so the record keeps it apart
    /// (``NetworkRecord/packetDrops``). The link's own enqueues and deliveries (a frame each) are left out, so is what
    /// lies beyond ``maximumEvents``.
    static func linkEvents(trace: String, requests: [FaultRequest], offset: Duration) -> [ProxyEvent] {
        guard let handle = FileHandle(forReadingAtPath: trace) else { return [] }
        defer { try? handle.close() }
        let linkWide = ["outage-start", "outage-end", "drop", "nat-expired"].map { "\"event\":\"\($0)\"" }
        // The shell's events of a TCP connection carry its number; the link's own deliveries do not.
        let perConnection = ["open", "connect", "close", "deliver", "drop", "reset"].map { "\"event\":\"\($0)\"" }
        var asked = requests.filter { request in
            if case .asked = request.outcome { return request.kind == "outage" || request.kind == "handover" }
            return false
        }
        var events: [ProxyEvent] = []
        var pending = Data()
        func take(_ line: Data) {
            guard events.count < maximumEvents, let text = String(data: line, encoding: .utf8),
                linkWide.contains(where: text.contains) || (!text.contains("\"conn\":null") && perConnection.contains(where: text.contains)),
                let object = try? JSONSerialization.jsonObject(with: line) as? [String: Any], let name = object["event"] as? String,
                let nanoseconds = (object["t_ns"] as? NSNumber)?.int64Value
            else { return }
            let time = Duration.nanoseconds(nanoseconds)
            let direction = (object["dir"] as? String).flatMap(Direction.init(rawValue:))
            let bytes = (object["bytes"] as? NSNumber)?.intValue
            let length = (object["delay_ns"] as? NSNumber).map { Duration.nanoseconds($0.int64Value) }
            let detail = object["detail"] as? String
            if let connection = (object["conn"] as? NSNumber)?.intValue {
                let kind: ProxyEvent.Kind? = switch name {
                case "open": .open
                case "connect": .connect
                case "close": .close
                case "deliver": .deliver
                case "drop": .drop
                case "reset": .reset
                default: nil
                }
                if let kind { events.append(ProxyEvent(time: time, kind: kind, connection: connection, direction: direction, bytes: bytes, detail: detail)) }
                return
            }
            switch name {
            case "outage-start":
                let kind = detail?.hasPrefix("handover") == true ? "handover" : "outage"
                guard detail?.hasSuffix("forced") == true else {
                    events.append(ProxyEvent(time: time, kind: .outageStart, duration: length, detail: kind))
                    return
                }
                // The session's time of this start, against the driver's requests.
                let at = (time + offset).seconds
                let match = asked.indices.min { abs(asked[$0].at - at) < abs(asked[$1].at - at) }.flatMap { abs(asked[$0].at - at) <= 0.5 ? $0 : nil }
                let origin = match.map { "fault \(asked.remove(at: $0).number)" } ?? "the control API"
                let words = length.map { String(format: " for %.3f s", $0.seconds) } ?? ""
                events.append(ProxyEvent(time: time, kind: .outageStart, duration: length, detail: "\(kind) forced\(words) (\(origin))"))
            case "outage-end":
                events.append(ProxyEvent(time: time, kind: .outageEnd, detail: detail))
            case "drop":
                // `frame 17: loss`: the cause after the frame's name.
                let cause = detail.map { $0.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) } ?? $0 } ?? "dropped"
                events.append(ProxyEvent(time: time, kind: .drop, direction: direction, bytes: bytes, detail: "packet \(cause)"))
            case "nat-expired":
                events.append(ProxyEvent(time: time, kind: .natExpired, direction: direction, detail: detail))
            default:
                break
            }
        }
        while events.count < maximumEvents, let chunk = try? handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            pending.append(chunk)
            while let newline = pending.firstIndex(of: 0x0A) {
                take(pending[pending.startIndex ..< newline])
                pending.removeSubrange(pending.startIndex ... newline)
            }
        }
        if !pending.isEmpty { take(pending) }
        return events
    }
}

/// A seed's `lowband shell` as faults see it: forced outages and handovers through its API's
/// `POST /outage`, a reset of every live TCP connection through `DELETE
/// /proxies/shell/connections?reason=fault N: reset` (the reason goes into the trace's `reset`
/// lines, so the record names the fault); the other kinds act on a proxy's connections or
/// toxics (`--faults` refuses them with `--shell`, so a request for one is a refusal in the record).
struct ShellLink: FaultLink {
    /// The port of the child's API on 127.0.0.1; nil when it never announced one.
    let port: Int?

    func forceOutage(for length: Duration, kind: String, reason: String?) async throws {
        guard let port else { throw ShellLinkError(description: "the shell's API never listened: the shell did not start") }
        let body = "{\"seconds\": \(String(format: "%.3f", max(0.001, length.seconds))), \"kind\": \"\(kind == "handover" ? "handover" : "outage")\"}"
        let answer = try await Task.detached { try LoopbackPost.post(port: port, path: "/outage", body: body) }.value
        guard answer.hasPrefix("HTTP/1.1 200") || answer.hasPrefix("HTTP/1.0 200") else {
            throw ShellLinkError(description: "POST /outage answered: \(answer.split(separator: "\r\n").first ?? "nothing")")
        }
    }

    func resetAll(reason: String) async throws {
        guard let port else { throw ShellLinkError(description: "the shell's API never listened: the shell did not start") }
        let query = reason.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "fault"
        let answer = try await Task.detached {
            try LoopbackPost.post(port: port, path: "/proxies/\(ExecShell.linkName)/connections?reason=\(query)", body: "", method: "DELETE")
        }.value
        guard answer.hasPrefix("HTTP/1.1 204") || answer.hasPrefix("HTTP/1.0 204") else {
            throw ShellLinkError(description: "DELETE /proxies/shell/connections answered: \(answer.split(separator: "\r\n").first ?? "nothing")")
        }
    }

    func partition(_ direction: Direction, reason: String?) async throws { throw Self.refusal("partition") }
    func heal(_ direction: Direction?, reason: String?) async throws {}
    func addToxic(_ toxic: Toxic) async throws -> Toxic { throw Self.refusal("toxic \(toxic.type.rawValue)") }
    func removeToxic(named name: String) async throws {}

    private static func refusal(_ what: String) -> ShellLinkError {
        ShellLinkError(description: "a shell's packet link plays outages, handovers and resets only, not \(what)")
    }
}

struct ShellLinkError: Error, CustomStringConvertible {
    var description: String
}
