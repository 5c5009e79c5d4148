import LowbandProfiles
import LowbandShaper
import LowbandTestSupport
import Testing

/// A wrong path handed to `--profile` or a profile's `trace:` (a device, a video, a log) is one
/// clear error naming the file, not a read of all of it into memory.
@Suite struct FileSizeCapTests {
    @Test func aProfileThatNeverEndsIsRefusedAfterOneMiB() {
        #expect {
            try NetworkProfile(contentsOf: "/dev/zero")
        } throws: { error in
            let error = error as? ProfileError
            return error?.code == .unreadableFile && error?.file == "/dev/zero"
                && error?.reason.contains("larger than 1 MiB") == true
        }
    }

    @Test func aTraceThatNeverEndsIsRefusedAfter64MiB() {
        #expect {
            try MahimahiTrace(contentsOf: "/dev/zero")
        } throws: { error in
            let error = error as? ProfileError
            return error?.code == .unreadableFile && error?.reason.contains("larger than 64 MiB") == true
        }
    }

    /// Through a profile: the error names the trace file; a profile just under the cap loads.
    @Test func aProfileNamingAHugeTraceNamesTheTrace() throws {
        let scratch = try TemporaryDirectory(prefix: "lowband-shaper")
        let directory = scratch.path
        try ProfileFiles.write(ProfileFiles.minimal(replacing: ("rate: 150kbit", "trace: /dev/zero")), to: "\(directory)/huge.yaml")
        #expect {
            try NetworkProfile(contentsOf: "\(directory)/huge.yaml")
        } throws: { error in
            (error as? ProfileError)?.file == "/dev/zero"
        }

        let body = ProfileFiles.minimal()
        let comment = "#" + String(repeating: "x", count: 1023) + "\n"
        let padding = String(repeating: comment, count: ((1 << 20) - body.utf8.count) / comment.utf8.count)
        try ProfileFiles.write(padding + body, to: "\(directory)/padded.yaml")
        #expect(try NetworkProfile(contentsOf: "\(directory)/padded.yaml").name == "padded")
    }
}
