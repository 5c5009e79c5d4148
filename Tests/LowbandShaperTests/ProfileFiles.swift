import Foundation

/// The repository's `profiles/` directory (a link to Sources/LowbandProfiles/Profiles, whose files
/// are compiled into the library) and profile files for tests.
enum ProfileFiles {
    static let shipped: String = {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("profiles").path
    }()

    static let shippedNames = [
        "3g", "atc-2g-rural", "atc-2g-urban", "atc-edge-lossy", "comcast-3g", "comcast-edge", "comcast-gprs",
        "devtools-3g", "devtools-slow-4g", "edge", "flapping", "gprs", "handover", "lte", "lte-radio", "nlc-3g", "nlc-edge",
        "offline", "perfect", "sitespeed-2g", "sitespeed-3g", "sitespeed-3gslow", "subway", "very-bad-network",
    ]

    static func write(_ text: String, to path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    /// The smallest valid profile, with `extra` lines appended and `replacing` applied.
    static func minimal(_ extra: String = "", replacing: (String, String)? = nil) -> String {
        var text = """
            description: a test profile
            downlink:
              rate: 150kbit
              delay: 200ms
              queue: 30KB
            uplink:
              rate: 60kbit
              delay: 200ms
              queue: 30KB

            """ + extra
        if let (old, new) = replacing { text = text.replacingOccurrences(of: old, with: new) }
        return text
    }
}
