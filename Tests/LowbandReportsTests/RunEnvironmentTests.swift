import Foundation
@testable import LowbandReports
import LowbandTestSupport
import Testing

/// Where a run's commit comes from, and what the environment says when there is none.
@Suite struct RunEnvironmentTests {
    @Test func theFirstDirectoryInsideACheckoutNamesTheCommit() throws {
        let directory = try TemporaryDirectory(prefix: "lowband-env")
        let outside = directory.path
        let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().path

        let found = RunEnvironment.commit(searching: [outside, checkout])
        #expect(found.commit.count >= 7 && found.commit.allSatisfy(\.isHexDigit), "\(found)")
        #expect(found.note == "the git checkout holding \(checkout)")
    }

    @Test func outsideEveryCheckoutTheCommitIsUnknownAndTheNoteSaysWhy() throws {
        let directory = try TemporaryDirectory(prefix: "lowband-env")
        let outside = directory.path

        let none = RunEnvironment.commit(searching: [outside])
        #expect(none.commit == "unknown")
        #expect(none.note.hasPrefix("no git commit: \(outside): "), "\(none.note)")
        #expect(none.note.contains("not a git repository"), "git's own reason: \(none.note)")
    }

    @Test func theCurrentEnvironmentOfATestRunNamesACommitAndAHost() {
        // The test binary lives in the checkout's build folder.
        let environment = RunEnvironment.current()
        #expect(environment.commit != "unknown", "\(environment.commitNote)")
        #expect(environment.host != "unknown" && !environment.host.isEmpty)
    }

    /// The commit is looked for beside the running binary: the directory read from the kernel is
    /// the one Foundation's bundle names, symbolic links resolved.
    @Test func theBinarysDirectoryIsTheOneTheBundleNames() throws {
        let bundle = try #require(Bundle.main.executableURL).resolvingSymlinksInPath().deletingLastPathComponent().path
        #expect(RunEnvironment.executableDirectory() == bundle)
    }
}
