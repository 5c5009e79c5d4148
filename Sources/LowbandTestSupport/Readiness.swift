import Foundation
import LowbandProcess

/// Waits for a service a test started (a broker, a proxy's control API) to answer, by running a
/// short Python probe until it exits 0: the one way tests wait for a real server, instead of
/// sleeping for a guessed while.
package enum Readiness {
    /// Runs `python` (a Python program) every 100 ms until it exits 0, at most `attempts` times;
    /// true once it did.
    package static func python(_ python: String, attempts: Int = 100) async throws -> Bool {
        for _ in 0 ..< attempts {
            if try await ExternalProcess.run("/usr/bin/env", ["python3", "-c", python]).status == 0 { return true }
            try await Task.sleep(for: .milliseconds(100))
        }
        return false
    }

    /// Waits until `http://127.0.0.1:PORT/version` answers: a Lowband or toxiproxy control API.
    package static func controlAPI(port: Int, attempts: Int = 100) async throws -> Bool {
        try await python("import urllib.request as u; u.urlopen('http://127.0.0.1:\(port)/version', timeout=2).read()", attempts: attempts)
    }
}

/// Waits, polling every 10 ms, until `condition` holds or `timeout` passes (on the wall clock);
/// true when it held. What a test waits for instead of a sleep of a guessed length: the
/// condition is what the test is about, the timeout only how long a loaded machine may take.
package func eventually(within timeout: Duration = .seconds(10), _ condition: () async throws -> Bool) async rethrows -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    while clock.now < deadline {
        if try await condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return try await condition()
}
