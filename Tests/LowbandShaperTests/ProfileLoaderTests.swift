import Foundation
import LowbandProfiles
import LowbandShaper
import LowbandTestSupport
import Testing

/// Profile files: the shipped ones, units, sources, and errors naming file, key and reason.
@Suite struct ProfileLoaderTests {
    private func parse(_ yaml: String) throws(ProfileError) -> NetworkProfile {
        try NetworkProfile(yaml: yaml, name: "test", file: "test.yaml")
    }

    /// Parses `yaml`, expecting an error; returns it.
    private func failure(_ yaml: String, sourceLocation: SourceLocation = #_sourceLocation) -> ProfileError? {
        do {
            _ = try parse(yaml)
            Issue.record("expected an error", sourceLocation: sourceLocation)
            return nil
        } catch {
            return error
        }
    }

    // MARK: Shipped profiles

    @Test func everyShippedProfileLoads() throws {
        let listed = NetworkProfile.available(in: [ProfileFiles.shipped]).map(\.name)
        #expect(listed == ProfileFiles.shippedNames)
        for name in listed {
            let profile = try NetworkProfile.load(named: name, searchPath: [ProfileFiles.shipped])
            #expect(profile.name == name)
            #expect(!profile.summary.isEmpty)
            #expect(profile.file == "\(ProfileFiles.shipped)/\(name).yaml")
        }
    }

    @Test(arguments: ProfileFiles.shippedNames)
    func everyShippedFigureHasASource(name: String) throws {
        let profile = try NetworkProfile.load(named: name, searchPath: [ProfileFiles.shipped])
        let unsourced = profile.figures.filter { $0.source == nil }.map(\.key)
        #expect(unsourced.isEmpty, "\(name): no source for \(unsourced)")
    }

    @Test func shippedFiguresMatchTheCalibrationTable() throws {
        let load = { (name: String) throws(ProfileError) in try NetworkProfile.load(named: name, searchPath: [ProfileFiles.shipped]) }
        let edge = try load("edge")
        #expect(edge.downlink.rate == .bitsPerSecond(150_000) && edge.uplink.rate == .bitsPerSecond(60_000))
        #expect(edge.downlink.delay + edge.uplink.delay == .milliseconds(400))
        #expect(edge.downlink.queueBytes == 30_000)
        let gprs = try load("gprs")
        #expect(gprs.downlink.rate == .bitsPerSecond(40_000) && gprs.uplink.rate == .bitsPerSecond(14_000))
        #expect(gprs.downlink.jitter.distribution == .pareto)
        #expect(gprs.radio?.states.last?.promotion == .milliseconds(300) ... .milliseconds(500), "+300–500 ms on the first packet after idle")
        let threeG = try load("3g")
        #expect(threeG.downlink.rate == .bitsPerSecond(1_500_000) && threeG.uplink.rate == .bitsPerSecond(500_000))
        // +1–2 s after idle: Qian et al.'s promotions, 1.5 s from FACH and 2 s from IDLE.
        #expect(threeG.radio?.states.map(\.promotion.upperBound) == [.zero, .milliseconds(1500), .seconds(2)])
        #expect(threeG.radio?.states.compactMap(\.demoteAfter) == [.seconds(5), .seconds(12)])
        let lte = try load("lte")
        #expect(lte.downlink.delay == .milliseconds(50) && lte.uplink.delay == .milliseconds(65))
        let veryBad = try load("very-bad-network")
        #expect(veryBad.downlink.loss.rate == 0.1 && veryBad.downlink.delay == .milliseconds(500))
        let offline = try load("offline")
        #expect(offline.outages.first?.duration == nil)
        let handover = try load("handover")
        #expect(handover.timeline?.loops == true)
        #expect(handover.timeline?.segments.map(\.downlink.rate) == [.bitsPerSecond(1_500_000), .bitsPerSecond(150_000)])
        #expect(handover.timeline?.segments[1].downlink.queueBytes == 64_000, "segments keep the base queue")
        #expect(handover.outages.first?.duration == .seconds(2) ... .seconds(7))
        #expect(try load("flapping").resets?.probability == 0.5)
        #expect(try load("perfect").downlink.rate == .unlimited)
    }

    @Test func sourcesComeFromTheFigureOrItsSection() throws {
        let profile = try NetworkProfile.load(named: "edge", searchPath: [ProfileFiles.shipped])
        #expect(profile.source(for: "downlink.rate")?.contains("3GPP TS 43.064") == true)
        #expect(profile.source(for: "downlink.loss.rto")?.contains("RFC 6298") == true, "from the loss section's source")
        #expect(profile.source(for: "outages[0].duration")?.contains("1–3 s") == true)
        #expect(try parse(ProfileFiles.minimal()).source(for: "downlink.rate") == nil, "no source given, none invented")
        let perfect = try NetworkProfile.load(named: "perfect", searchPath: [ProfileFiles.shipped])
        #expect(perfect.source(for: "downlink.rate") == "by definition: a link that adds nothing", "a top-level source covers the file")
    }

    // MARK: Units

    @Test func humanUnits() throws {
        let profile = try parse("""
            description: units
            mtu: 1400B
            downlink:
              rate: 1.5Mbit/s
              delay: 0.25s
              jitter: {amount: 1500us, distribution: normal, correlation: 12.5%}
              loss: {rate: 0.5%, burst: 250ms, rto: 1.5s, rto-max: 2min}
              queue: 64KiB
            uplink:
              rate: {value: 800bit, source: "tiny"}
              delay: 0
              queue: 1.5MB
            connect: {delay: 300ms..500ms}
            wakeup: {idle: 1h, delay: 100ms}
            resets: {after-bytes: 10KB..1MB}
            dns: {delay: 1s..2s, failure: 2%, source: "NLC High Latency DNS"}
            """)
        #expect(profile.mtu == 1400)
        #expect(profile.downlink.rate == .bitsPerSecond(1_500_000))
        #expect(profile.downlink.delay == .milliseconds(250))
        #expect(profile.downlink.jitter == JitterProfile(amount: .microseconds(1500), distribution: .normal, correlation: 0.125))
        #expect(profile.downlink.loss == LossProfile(rate: 0.005, burst: .milliseconds(250), rto: .milliseconds(1500), maximumRTO: .seconds(120)))
        #expect(profile.downlink.queueBytes == 65_536)
        #expect(profile.uplink.rate == .bitsPerSecond(800))
        #expect(profile.uplink.delay == .zero)
        #expect(profile.uplink.queueBytes == 1_500_000)
        #expect(profile.connectDelay == .milliseconds(300) ... .milliseconds(500))
        #expect(profile.wakeUp == WakeUpProfile(idle: .seconds(3600), delay: .milliseconds(100) ... .milliseconds(100)))
        #expect(profile.resets == ResetProfile(probability: 1, afterBytes: 10_000 ... 1_000_000))
        #expect(profile.dns == DNSProfile(delay: .seconds(1) ... .seconds(2), failure: 0.02))
        #expect(profile.sources == [ProfileSource(key: "uplink.rate", text: "tiny"), ProfileSource(key: "dns", text: "NLC High Latency DNS")])
        #expect(profile.figures.first { $0.key == "dns.delay" }?.value == "1 s..2 s")
    }

    @Test func figuresPrintInHumanUnits() throws {
        let profile = try parse(ProfileFiles.minimal("wakeup: {idle: 10s, delay: 1s..2s}\n", replacing: ("150kbit", "1.5Mbit")))
        let figures = Dictionary(uniqueKeysWithValues: profile.figures.map { ($0.key, $0.value) })
        #expect(figures["downlink.rate"] == "1.5 Mbit/s")
        #expect(figures["uplink.rate"] == "60 kbit/s")
        #expect(figures["downlink.delay"] == "200 ms")
        #expect(figures["downlink.queue"] == "30 KB")
        #expect(figures["downlink.loss.rate"] == "0%")
        #expect(figures["wakeup.delay"] == "1 s..2 s")
        #expect(figures["mtu"] == "1500 B")
        #expect(profile.figures.first?.key == "mtu", "figures come in the file's order")
    }

    // MARK: Errors

    @Test func unknownKeyNamesFileKeyAndLine() throws {
        let error = try #require(failure(ProfileFiles.minimal(replacing: ("  delay: 200ms\n  queue: 30KB\nuplink", "  delay: 200ms\n  queue: 30KB\n  lossy: 1%\nuplink"))))
        #expect(error.code == .unknownKey)
        #expect(error.key == "downlink.lossy")
        #expect(error.line == 6)
        #expect(error.description.hasPrefix("test.yaml:6: downlink.lossy: unknown key 'lossy'; expected one of: rate, trace"))
    }

    @Test func negativeRate() throws {
        let error = try #require(failure(ProfileFiles.minimal(replacing: ("150kbit", "-150kbit"))))
        #expect(error.code == .invalidValue)
        #expect(error.key == "downlink.rate")
        #expect(error.reason.contains("rate must be positive"))
    }

    @Test func lossAbove100Percent() throws {
        let error = try #require(failure(ProfileFiles.minimal(replacing: ("  queue: 30KB\nuplink", "  queue: 30KB\n  loss: 150%\nuplink"))))
        #expect(error.key == "downlink.loss")
        #expect(error.reason.contains("above 100%"))
        #expect(error.description == "test.yaml:6: downlink.loss: 150% is above 100%; a percentage lies between 0% and 100%")
    }

    @Test(arguments: [
        ("200ms", "200 parsecs", "downlink.delay", "unknown unit 'parsecs'"),
        ("200ms", "200", "downlink.delay", "has no unit"),
        ("150kbit", "150kbps", "downlink.rate", "unknown rate unit 'kbps'"),
        ("150kbit", "fast", "downlink.rate", "is not a rate"),
        ("  queue: 30KB\nuplink", "  queue: 30 furlongs\nuplink", "downlink.queue", "unknown size unit"),
        ("  queue: 30KB\nuplink", "  queue: 30KB\n  jitter: {amount: 10ms, distribution: gaussian}\nuplink", "downlink.jitter.distribution", "use uniform, normal or pareto"),
        ("  queue: 30KB\nuplink", "  queue: 30KB\n  loss: {rate: 1%, burst: 0.5}\nuplink", "downlink.loss.burst", "no longer a count of pieces"),
        ("  queue: 30KB\nuplink", "  queue: 30KB\n  loss: {rate: 1%, burst: 3}\nuplink", "downlink.loss.burst", "'3' has no unit"),
        ("  queue: 30KB\nuplink", "  queue: 30KB\n  loss: {rate: 1%, burst: 0ms}\nuplink", "downlink.loss.burst", "must last longer than 0"),
        ("  queue: 30KB\nuplink", "  queue: 30KB\n  loss: 1\nuplink", "downlink.loss", "write a percentage like 0.5%"),
        ("  queue: 30KB\nuplink", "  queue: 30KB\n  loss: 0.5\nuplink", "downlink.loss", "write a percentage like 0.5%"),
        ("  queue: 30KB\nuplink", "  queue: 30KB\n  loss: {rate: 1%, rto: 2s, rto-max: 1s}\nuplink", "downlink.loss.rto-max", "below rto"),
        ("  queue: 30KB\nuplink", "  queue: 30KB\n  jitter: {amount: 1ms, correlation: 100%}\nuplink", "downlink.jitter.correlation", "below 100%"),
    ])
    func badValuesNameTheKeyAndTheReason(old: String, new: String, key: String, reason: String) throws {
        let error = try #require(failure(ProfileFiles.minimal(replacing: (old, new))))
        #expect(error.key == key)
        #expect(error.reason.contains(reason), "\(error)")
        #expect(error.description.hasPrefix("test.yaml:"))
    }

    /// Bytes on the air: a file that says nothing gets IPv4 + TCP with timestamps (52 bytes a
    /// segment, cited), and may choose IPv6, TLS, no acknowledgements, or none at all.
    @Test func overheadDefaultsToTCPOverIPv4AndCanBeChosen() throws {
        let plain = try NetworkProfile(yaml: ProfileFiles.minimal(), name: "test", file: "test.yaml")
        #expect(plain.overhead == .tcpIPv4)
        #expect(plain.maximumSegmentPayload == 1448)
        #expect(plain.figures.first { $0.key == "overhead.headers" }?.source?.contains("RFC 7323") == true)
        let chosen = try NetworkProfile(yaml: ProfileFiles.minimal("overhead: {ip: ipv6, tls: 22B, delayed-ack: 200ms, source: \"a phone on IPv6\"}\n"), name: "test", file: "test.yaml")
        #expect(chosen.overhead == PacketOverhead(headerBytes: 72, tlsRecordBytes: 22, delayedAck: .milliseconds(200)))
        #expect(chosen.source(for: "overhead.tls") == "a phone on IPv6")
        let bare = try NetworkProfile(yaml: ProfileFiles.minimal("overhead: {timestamps: false, acks: false}\n"), name: "test", file: "test.yaml")
        #expect(bare.overhead == PacketOverhead(headerBytes: 40, acknowledgements: false))
        let none = try NetworkProfile(yaml: ProfileFiles.minimal("overhead: none\n"), name: "test", file: "test.yaml")
        #expect(none.overhead == .none)
        #expect(none.figures.contains { $0.key == "overhead" && $0.value.hasPrefix("none") })
    }

    /// Middleboxes: a NAT's idle timeout and what an expiry does, and handovers that bring a
    /// new address.
    @Test func natAndNewAddressesAreRead() throws {
        let yaml = ProfileFiles.minimal("""
            nat: {idle-timeout: 4m, on-expiry: reset, source: "a carrier"}
            outages:
              - {kind: handover, start: 30s, duration: 2s, new-address: true}
              - {kind: handover, start: 90s, duration: 2s, new-address: reset}
              - {kind: handover, start: 150s, duration: 2s}

            """)
        let profile = try NetworkProfile(yaml: yaml, name: "test", file: "test.yaml")
        #expect(profile.nat == NATProfile(idleTimeout: .seconds(240), onExpiry: .reset))
        #expect(profile.outages.map(\.newAddress) == [.silent, .reset, nil])
        #expect(profile.source(for: "nat.idle-timeout") == "a carrier")
        let figures = Dictionary(uniqueKeysWithValues: profile.figures.map { ($0.key, $0.value) })
        #expect(figures["nat.on-expiry"] == "reset")
        #expect(figures["outages[0].new-address"] == "true (open flows die silently)")
    }

    @Test(arguments: [
        ("description: a test profile\n", "", "description"),
        ("  rate: 60kbit\n", "", "uplink.rate"),
        ("  delay: 200ms\n  queue: 30KB\n", "  queue: 30KB\n", "uplink.delay"),
        ("  queue: 30KB\n", "", "uplink.queue"),
    ])
    func missingRequiredFigure(old: String, new: String, key: String) throws {
        let yaml = ProfileFiles.minimal()
        let cut = try #require(yaml.range(of: old, options: .backwards))
        let error = try #require(failure(yaml.replacingCharacters(in: cut, with: new)))
        #expect(error.code == .missingKey)
        #expect(error.key == key)
        #expect(error.reason.hasPrefix("missing"))
    }

    @Test(arguments: [
        ("outages: [{start: 5s, duration: 10s, every: 10s}]\n", "outages[0].every", "must exceed the longest duration"),
        ("outages: [{duration: forever, every: 10s}]\n", "outages[0].every", "cannot repeat"),
        ("outages: [{start: 5s}]\n", "outages[0].duration", "missing"),
        ("outages: [{duration: 5s, kind: tunnel}]\n", "outages[0].kind", "use blackout or handover"),
        ("outages: {duration: 5s}\n", "outages", "list"),
        ("resets: {probability: 50%}\n", "resets.after-time", "missing"),
        ("timeline: {segments: []}\n", "timeline.segments", "non-empty"),
        ("timeline: {segments: [{duration: 10s, downlink: {queue: 10KB}}]}\n", "timeline.segments[0].downlink.queue", "unknown key"),
        ("timeline: {loop: maybe, segments: [{duration: 1s}]}\n", "timeline.loop", "true or false"),
        ("wakeup: {idle: 0s, delay: 1s}\n", "wakeup.idle", "positive"),
        ("dns: {failure: 100%}\n", "dns.failure", "leaves no network"),
        ("dns: {delay: 1s, ttl: 5s}\n", "dns.ttl", "unknown key"),
        ("mtu: 0\n", "mtu", "between 1 and 65535"),
        ("mtu: 52\n", "overhead", "leave no payload in an MTU of 52 bytes"),
        ("overhead: {ip: ipx}\n", "overhead.ip", "use ipv4 or ipv6"),
        ("overhead: {acks: sometimes}\n", "overhead.acks", "true or false"),
        ("overhead: {delayed-ack: 600ms}\n", "overhead.delayed-ack", "below 500ms"),
        ("overhead: {tls: 40KB}\n", "overhead.tls", "tens of bytes"),
        ("overhead: some\n", "overhead", "write none"),
        ("radio: {states: [{name: ON, power: 800mW, demote-after: 5s}, {name: OFF, power: 0mW, demote-after: 10s, promotion: 2s}]}\n", "radio.states[1].demote-after", "never rests"),
        ("radio: {states: [{name: ON, power: 800mW, demote-after: 0s}, {name: OFF, power: 0mW, promotion: 2s}]}\n", "radio.states[0].demote-after", "must be positive"),
        ("radio: {states: [{name: ON, power: -800mW, demote-after: 5s}, {name: OFF, power: 0mW, promotion: 2s}]}\n", "radio.states[0].power", "below 0"),
        ("radio: {states: [{name: ON, power: 800mW, demote-after: 5s}, {name: OFF, promotion: 2s}]}\n", "radio.states", "every state a power, or none"),
        ("radio: {states: [{name: ON, demote-after: 5s}, {name: OFF}]}\n", "radio.states[1].promotion", "missing"),
        ("radio: {states: [{name: ON, demote-after: 5s}]}\n", "radio.states", "at least two"),
        ("radio: {states: [{name: ON, demote-after: 5s, carries: 500B}, {name: OFF, promotion: 1s}]}\n", "radio.states[0].carries", "top state carries everything"),
        ("radio: {states: [{name: ON, demote-after: 5s}, {name: OFF, promotion: 1s, carries: 500B}]}\n", "radio.states[1].carries", "no channel"),
        ("radio: {states: [{name: A, demote-after: 5s}, {name: B, demote-after: 5s, promotion: 1s, carries: 0B}, {name: C, promotion: 2s}]}\n", "radio.states[1].carries", "positive"),
        ("radio: {states: [{name: A, demote-after: 5s}, {name: B, demote-after: 5s, promotion: 1s, carries: {uplink: 500B}}, {name: C, promotion: 2s}]}\n", "radio.states[1].carries.downlink", "missing"),
        ("wakeup: {idle: 10s, delay: 1s}\nradio: {states: [{name: ON, demote-after: 5s}, {name: OFF, promotion: 1s}]}\n", "radio", "not both"),
        ("nat: {idle-timeout: 300ms}\n", "nat.idle-timeout", "within one round trip (400 ms here)"),
        ("nat: {idle-timeout: 5m, on-expiry: maybe}\n", "nat.on-expiry", "use silent"),
        ("nat: {on-expiry: reset}\n", "nat.idle-timeout", "missing"),
        ("outages: [{duration: 5s, new-address: perhaps}]\n", "outages[0].new-address", "write true"),
        ("description: twice\n", "description", "given twice"),
        ("connect: {delay: 3s..1s}\n", "connect.delay", "runs backwards"),
        ("connect: {delay: [1s]}\n", "connect.delay", "expected a value"),
        ("downlink: {rate: 1kbit}\n", "downlink", "given twice"),
    ])
    func badSections(extra: String, key: String, reason: String) throws {
        let error = try #require(failure(ProfileFiles.minimal(extra)))
        #expect(error.key == key)
        #expect(error.reason.contains(reason), "\(error)")
    }

    @Test func invalidYAML() throws {
        let error = try #require(failure("description: [unclosed\n"))
        #expect(error.code == .invalidYAML)
        #expect(error.description.hasPrefix("test.yaml: not valid YAML"))
        #expect(failure("just a string")?.reason.contains("mapping") == true)
        #expect(failure("")?.code == .invalidYAML)
    }

    // MARK: Files, names and traces

    @Test func aUsersFileWorksWhereverANameDoes() throws {
        let scratch = try TemporaryDirectory(prefix: "lowband-shaper")
        let directory = scratch.path
        let path = "\(directory)/mine.yaml"
        try ProfileFiles.write(ProfileFiles.minimal(), to: path)
        let profile = try NetworkProfile.load(named: path, searchPath: [])
        #expect(profile.name == "mine")
        #expect(profile.file == path)
        #expect(try NetworkProfile(contentsOf: path) == profile)
        #expect(NetworkProfile.isPath("mine.yaml") && NetworkProfile.isPath("./x") && NetworkProfile.isPath("a.yml"))
        #expect(!NetworkProfile.isPath("edge"))
    }

    @Test func errorsNameTheFileTheyCameFrom() throws {
        let scratch = try TemporaryDirectory(prefix: "lowband-shaper")
        let directory = scratch.path
        let path = "\(directory)/broken.yaml"
        try ProfileFiles.write(ProfileFiles.minimal(replacing: ("150kbit", "-1kbit")), to: path)
        #expect(throws: ProfileError.self) { try NetworkProfile(contentsOf: path) }
        do {
            _ = try NetworkProfile.load(named: "broken", searchPath: [directory])
        } catch {
            #expect(error.file == path)
            #expect(error.description.hasPrefix("\(path):3: downlink.rate: "))
        }
    }

    @Test func unknownNameListsTheKnownOnes() throws {
        do {
            _ = try NetworkProfile.load(named: "edgy", searchPath: [ProfileFiles.shipped])
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .profileNotFound)
            #expect(error.reason.contains("known profiles: 3g, atc-2g-rural, atc-2g-urban"))
        }
        #expect(throws: ProfileError.self) { try NetworkProfile.load(named: "/no/such/file.yaml", searchPath: []) }
    }

    @Test func earlierDirectoriesShadowLaterOnes() throws {
        let scratch = try TemporaryDirectory(prefix: "lowband-shaper")
        let directory = scratch.path
        try ProfileFiles.write(ProfileFiles.minimal(replacing: ("a test profile", "my own edge")), to: "\(directory)/edge.yaml")
        try ProfileFiles.write(ProfileFiles.minimal(), to: "\(directory)/zzz.yml")
        let path = [directory, ProfileFiles.shipped]
        #expect(try NetworkProfile.load(named: "edge", searchPath: path).summary == "my own edge")
        let listed = NetworkProfile.available(in: path)
        #expect(listed.map(\.name) == ProfileFiles.shippedNames + ["zzz"])
        #expect(listed.first { $0.name == "edge" }?.path == "\(directory)/edge.yaml")
    }

    @Test func aTraceIsReadRelativeToItsProfile() throws {
        let scratch = try TemporaryDirectory(prefix: "lowband-shaper")
        let directory = scratch.path
        try ProfileFiles.write("1\n", to: "\(directory)/traces/12mbit.trace")
        try ProfileFiles.write(ProfileFiles.minimal(replacing: ("rate: 150kbit", "trace: traces/12mbit.trace")), to: "\(directory)/traced.yaml")
        let profile = try NetworkProfile(contentsOf: "\(directory)/traced.yaml")
        guard case .trace(let trace) = profile.downlink.rate else {
            Issue.record("expected a trace, got \(profile.downlink.rate)")
            return
        }
        #expect(trace.averageBitsPerSecond == 12_000_000)
        #expect(profile.figures.first { $0.key == "downlink.trace" }?.value.hasSuffix("(mean 12 Mbit/s)") == true)

        try ProfileFiles.write("5\n3\n", to: "\(directory)/traces/bad.trace")
        try ProfileFiles.write(ProfileFiles.minimal(replacing: ("rate: 150kbit", "trace: traces/bad.trace")), to: "\(directory)/bad.yaml")
        do {
            _ = try NetworkProfile(contentsOf: "\(directory)/bad.yaml")
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .invalidTrace)
            #expect(error.description == "\(directory)/traces/bad.trace:2: timestamp 3 comes after 5; a trace must not go back in time")
        }
    }

    @Test(arguments: ["", "0\n", "x\n", "-1\n"])
    func malformedTraces(text: String) {
        #expect(throws: ProfileError.self) { try MahimahiTrace(text: text, file: "t") }
    }
}

/// The documentation's examples are real profiles.
@Suite struct ProfileDocumentationTests {
    @Test func theReadmeExampleParses() throws {
        let readme = try String(contentsOfFile: "\(ProfileFiles.shipped)/README.md", encoding: .utf8)
        let start = try #require(readme.range(of: "```yaml\n"))
        let end = try #require(readme.range(of: "```", range: start.upperBound ..< readme.endIndex))
        let profile = try NetworkProfile(yaml: String(readme[start.upperBound ..< end.lowerBound]), name: "example", file: "README.md")
        #expect(profile.downlink.loss == LossProfile(rate: 0.01, burst: .milliseconds(300), rto: .seconds(1), maximumRTO: .seconds(60)))
        #expect(profile.outages.count == 2 && profile.outages[1].duration == nil)
        #expect(profile.timeline?.segments.count == 2)
        #expect(profile.source(for: "uplink.queue") == "covers every figure of the file without its own")
    }

    @Test func everyFigureAcceptsItsSourcedForm() throws {
        let profile = try NetworkProfile(yaml: """
            description: sourced
            downlink:
              rate: {value: unlimited, source: "a"}
              delay: {value: 10ms, source: "b"}
              jitter: {value: 5ms, source: "c"}
              loss: {value: 1%, source: "d"}
              queue: {value: 10KB, source: "e"}
            uplink: {rate: 1Mbit, delay: 0ms, queue: 10KB}
            outages:
              - {start: {value: 1s, source: "f"}, duration: {value: forever, source: "g"}}
            """, name: "sourced")
        #expect(profile.downlink.rate == .unlimited)
        #expect(profile.downlink.jitter.amount == .milliseconds(5))
        #expect(profile.outages[0].duration == nil)
        #expect(profile.sources.map(\.text).sorted() == ["a", "b", "c", "d", "e", "f", "g"])
        #expect(profile.source(for: "downlink.jitter.distribution") == "c")
    }
}
