public import LowbandShaper
/// The profiles that ship with Lowband, compiled into the library from `Profiles/*.yaml`
/// (`profiles/` at the repository's root), so `NetworkProfile.load(named: "edge")` works in any
/// program that links LowbandShaper, wherever it runs, with no files to install.
///
/// A profile directory on the search path can hide one of these by giving a file its name.
public enum ShippedProfiles {
    /// Each shipped profile's name and YAML, sorted by name. SwiftPM names the embedded bytes
    /// after the file, a leading digit replaced by `_` (`3g.yaml` is `_g_yaml`);
    /// `ShippedProfilesTests` checks this list against the directory.
    static let files: [(name: String, yaml: [UInt8])] = [
        ("3g", PackageResources._g_yaml),
        ("atc-2g-rural", PackageResources.atc_2g_rural_yaml),
        ("atc-2g-urban", PackageResources.atc_2g_urban_yaml),
        ("atc-edge-lossy", PackageResources.atc_edge_lossy_yaml),
        ("comcast-3g", PackageResources.comcast_3g_yaml),
        ("comcast-edge", PackageResources.comcast_edge_yaml),
        ("comcast-gprs", PackageResources.comcast_gprs_yaml),
        ("devtools-3g", PackageResources.devtools_3g_yaml),
        ("devtools-slow-4g", PackageResources.devtools_slow_4g_yaml),
        ("edge", PackageResources.edge_yaml),
        ("flapping", PackageResources.flapping_yaml),
        ("gprs", PackageResources.gprs_yaml),
        ("handover", PackageResources.handover_yaml),
        ("lte", PackageResources.lte_yaml),
        ("lte-radio", PackageResources.lte_radio_yaml),
        ("nlc-3g", PackageResources.nlc_3g_yaml),
        ("nlc-edge", PackageResources.nlc_edge_yaml),
        ("offline", PackageResources.offline_yaml),
        ("perfect", PackageResources.perfect_yaml),
        ("sitespeed-2g", PackageResources.sitespeed_2g_yaml),
        ("sitespeed-3g", PackageResources.sitespeed_3g_yaml),
        ("sitespeed-3gslow", PackageResources.sitespeed_3gslow_yaml),
        ("subway", PackageResources.subway_yaml),
        ("very-bad-network", PackageResources.very_bad_network_yaml),
    ]

    /// The names, sorted.
    public static var names: [String] { files.map(\.name) }

    /// The YAML of the shipped profile `name`, or nil when none has that name.
    public static func yaml(named name: String) -> String? {
        files.first { $0.name == name }.map { String(decoding: $0.yaml, as: UTF8.self) }
    }

    /// What errors and `profiles show` call a shipped profile's file.
    public static func file(of name: String) -> String {
        "<shipped>/\(name).yaml"
    }

    /// The shipped profile `name`, parsed.
    public static func profile(named name: String) throws(ProfileError) -> NetworkProfile? {
        guard let yaml = yaml(named: name) else { return nil }
        return try NetworkProfile(yaml: yaml, name: name, file: file(of: name))
    }
}
