import Foundation
import LowbandShaper
import Testing

/// Where profiles are looked up: LOWBAND_PROFILES, ./profiles, then up from the executable.
@Suite struct ProfileDirectoryTests {
    @Test func environmentThenWorkingDirectoryThenUpFromTheExecutable() throws {
        let root = try ProfileFiles.scratch()
        defer { ProfileFiles.remove(root) }
        for directory in ["custom", "other", "work/profiles", "repo/profiles", "repo/.build/debug"] {
            try FileManager.default.createDirectory(atPath: "\(root)/\(directory)", withIntermediateDirectories: true)
        }
        let path = ProfileDirectory.searchPath(
            environment: ["LOWBAND_PROFILES": "\(root)/custom:\(root)/missing:\(root)/other"],
            currentDirectory: "\(root)/work",
            executablePath: "\(root)/repo/.build/debug/lowband"
        )
        #expect(path == ["\(root)/custom", "\(root)/other", "\(root)/work/profiles", "\(root)/repo/profiles"])
    }

    @Test func onlyExistingDirectoriesEachOnce() throws {
        let root = try ProfileFiles.scratch()
        defer { ProfileFiles.remove(root) }
        try FileManager.default.createDirectory(atPath: "\(root)/profiles", withIntermediateDirectories: true)
        let path = ProfileDirectory.searchPath(
            environment: ["LOWBAND_PROFILES": "profiles"],
            currentDirectory: root,
            executablePath: "\(root)/lowband"
        )
        #expect(path == ["\(root)/profiles"], "relative entries resolve against the working directory")
        #expect(ProfileDirectory.searchPath(environment: [:], currentDirectory: "\(root)/nowhere", executablePath: nil) == [])
    }

    @Test func theRepositoryIsFoundFromItsBuildDirectory() {
        let repository = (ProfileFiles.shipped as NSString).deletingLastPathComponent
        let path = ProfileDirectory.searchPath(environment: [:], currentDirectory: "/", executablePath: "\(repository)/.build/debug/lowband")
        #expect(path == [ProfileFiles.shipped])
    }
}
