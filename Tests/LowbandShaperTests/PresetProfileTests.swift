import LowbandProfiles
import LowbandShaper
import Testing

/// Other tools' presets ship as profiles with their published figures: rates, one-way delays
/// (a round trip split evenly where the tool gives one) and loss, grouped by the tool.
@Suite struct PresetProfileTests {
    struct Preset: Sendable, CustomTestStringConvertible {
        var name: String
        var group: String
        var down: Int64
        var up: Int64
        var downDelay: Int
        var upDelay: Int
        var loss: Double
        var testDescription: String { name }
    }

    static let presets = [
        Preset(name: "nlc-3g", group: "Network Link Conditioner", down: 780_000, up: 330_000, downDelay: 100, upDelay: 100, loss: 0),
        Preset(name: "nlc-edge", group: "Network Link Conditioner", down: 240_000, up: 200_000, downDelay: 400, upDelay: 440, loss: 0),
        Preset(name: "lte", group: "Network Link Conditioner", down: 50_000_000, up: 10_000_000, downDelay: 50, upDelay: 65, loss: 0),
        Preset(name: "very-bad-network", group: "Network Link Conditioner", down: 1_000_000, up: 1_000_000, downDelay: 500, upDelay: 500, loss: 0.10),
        Preset(name: "devtools-3g", group: "Chrome DevTools", down: 400_000, up: 400_000, downDelay: 200, upDelay: 200, loss: 0),
        Preset(name: "devtools-slow-4g", group: "Chrome DevTools", down: 1_440_000, up: 675_000, downDelay: 75, upDelay: 75, loss: 0),
        Preset(name: "sitespeed-3g", group: "sitespeed.io throttle", down: 1_600_000, up: 768_000, downDelay: 75, upDelay: 75, loss: 0),
        Preset(name: "sitespeed-3gslow", group: "sitespeed.io throttle", down: 400_000, up: 400_000, downDelay: 100, upDelay: 100, loss: 0),
        Preset(name: "sitespeed-2g", group: "sitespeed.io throttle", down: 35_000, up: 32_000, downDelay: 325, upDelay: 325, loss: 0),
        Preset(name: "comcast-gprs", group: "comcast", down: 50_000, up: 50_000, downDelay: 250, upDelay: 250, loss: 0.02),
        Preset(name: "comcast-edge", group: "comcast", down: 250_000, up: 250_000, downDelay: 150, upDelay: 150, loss: 0.015),
        Preset(name: "comcast-3g", group: "comcast", down: 750_000, up: 750_000, downDelay: 125, upDelay: 125, loss: 0.015),
        Preset(name: "atc-2g-rural", group: "Facebook ATC", down: 20_000, up: 18_000, downDelay: 650, upDelay: 650, loss: 0.02),
        Preset(name: "atc-2g-urban", group: "Facebook ATC", down: 35_000, up: 32_000, downDelay: 650, upDelay: 650, loss: 0),
        Preset(name: "atc-edge-lossy", group: "Facebook ATC", down: 240_000, up: 200_000, downDelay: 400, upDelay: 440, loss: 0.01),
    ]

    @Test(arguments: presets)
    func presetsCarryTheirPublishedFigures(preset: Preset) throws {
        let profile = try NetworkProfile.load(named: preset.name, searchPath: [])
        #expect(profile.group == preset.group)
        #expect(profile.downlink.rate == .bitsPerSecond(preset.down) && profile.uplink.rate == .bitsPerSecond(preset.up))
        #expect(profile.downlink.delay == .milliseconds(preset.downDelay) && profile.uplink.delay == .milliseconds(preset.upDelay))
        #expect(profile.downlink.loss.rate == preset.loss && profile.uplink.loss.rate == preset.loss)
        #expect(profile.downlink.jitter == .none, "none of these tools' presets has jitter")
    }

    @Test func lowbandsOwnProfilesHaveNoGroup() throws {
        for name in ["3g", "edge", "gprs", "subway", "flapping", "handover", "offline", "perfect"] {
            #expect(try NetworkProfile.load(named: name, searchPath: []).group == nil, "\(name)")
        }
    }
}
