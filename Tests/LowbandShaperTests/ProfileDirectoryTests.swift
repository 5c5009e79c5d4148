import Foundation
import LowbandProfiles
import LowbandShaper
import LowbandTestSupport
import Testing

/// Where profiles are looked up: LOWBAND_PROFILES, ./profiles, then the shipped ones compiled
/// into the library — never by walking the file system from the executable.
@Suite struct ProfileDirectoryTests {
    @Test func environmentThenWorkingDirectory() throws {
        let scratch = try TemporaryDirectory(prefix: "lowband-shaper")
        let root = scratch.path
        for directory in ["custom", "other", "work/profiles", "repo/profiles"] {
            try FileManager.default.createDirectory(atPath: "\(root)/\(directory)", withIntermediateDirectories: true)
        }
        let path = ProfileDirectory.searchPath(
            environment: ["LOWBAND_PROFILES": "\(root)/custom:\(root)/missing:\(root)/other"],
            currentDirectory: "\(root)/work"
        )
        #expect(path == ["\(root)/custom", "\(root)/other", "\(root)/work/profiles"])
    }

    @Test func onlyExistingDirectoriesEachOnce() throws {
        let scratch = try TemporaryDirectory(prefix: "lowband-shaper")
        let root = scratch.path
        try FileManager.default.createDirectory(atPath: "\(root)/profiles", withIntermediateDirectories: true)
        let path = ProfileDirectory.searchPath(environment: ["LOWBAND_PROFILES": "profiles"], currentDirectory: root)
        #expect(path == ["\(root)/profiles"], "relative entries resolve against the working directory")
        #expect(ProfileDirectory.searchPath(environment: [:], currentDirectory: "\(root)/nowhere") == [])
    }

    /// With no directory at all, every shipped profile still loads by name, with the same
    /// figures as its file in the repository.
    @Test(arguments: ProfileFiles.shippedNames)
    func shippedProfilesLoadWithoutAnyDirectory(name: String) throws {
        let built = try NetworkProfile.load(named: name, searchPath: [])
        var fromFile = try NetworkProfile(contentsOf: "\(ProfileFiles.shipped)/\(name).yaml")
        #expect(built.file == "<shipped>/\(name).yaml")
        fromFile.file = built.file
        fromFile.sources = built.sources
        #expect(built == fromFile)
    }

    /// The compiled-in list is the directory: a file added to Profiles/ without a line in
    /// ShippedProfiles (or the other way round) fails here.
    @Test func theShippedListIsTheDirectory() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: ProfileFiles.shipped)
            .filter { $0.hasSuffix(".yaml") }.map { String($0.dropLast(5)) }.sorted()
        #expect(ShippedProfiles.names == files)
        for name in files {
            let text = try String(contentsOfFile: "\(ProfileFiles.shipped)/\(name).yaml", encoding: .utf8)
            #expect(ShippedProfiles.yaml(named: name) == text, "\(name): the embedded bytes are another file's")
        }
    }

    /// A directory on the search path hides a shipped profile of the same name.
    @Test func aDirectoryHidesAShippedName() throws {
        let scratch = try TemporaryDirectory(prefix: "lowband-shaper")
        let root = scratch.path
        try ProfileFiles.write(ProfileFiles.minimal(replacing: ("a test profile", "my own edge")), to: "\(root)/edge.yaml")
        #expect(try NetworkProfile.load(named: "edge", searchPath: [root]).summary == "my own edge")
        let listed = NetworkProfile.available(in: [root])
        #expect(listed.first { $0.name == "edge" }?.isShipped == false)
        #expect(listed.first { $0.name == "gprs" }?.isShipped == true)
    }
}
