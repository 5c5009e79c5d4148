import Foundation
import LowbandAppEvents
import LowbandTestSupport
import Testing

/// An events file followed as the app appends to it.
@Suite struct AppEventFileTests {
    private func append(_ text: String, to path: String) throws {
        if !FileManager.default.fileExists(atPath: path) { _ = FileManager.default.createFile(atPath: path, contents: nil) }
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(text.utf8))
        try handle.close()
    }

    @Test func linesAreTakenAsTheyAreCompletedEvenFromAFileThatAppearsLater() throws {
        let directory = try TemporaryDirectory(prefix: "lowband-events")
        let path = directory.file("events.jsonl")
        let log = AppEventLog()
        let file = AppEventFile(path: path, log: log)
        #expect(file.poll() == 0)
        try append(#"{"device":"alice","kind":"sent","message":"m-1","chat":"c"}"# + "\n" + #"{"device":"alice","kind":"ac"#, to: path)
        #expect(file.poll() == 1)
        // The half-written line waits for its newline.
        try append(#"ked","message":"m-1","chat":"c"}"# + "\n", to: path)
        #expect(file.poll() == 1)
        #expect(log.events.map(\.kind) == [.sent, .acked])
        #expect(file.problems.isEmpty)
    }

    @Test func aBadOrOverlongLineIsReportedAndTheRestIsRead() throws {
        let directory = try TemporaryDirectory(prefix: "lowband-events")
        let path = directory.file("events.jsonl")
        let log = AppEventLog()
        let file = AppEventFile(path: path, log: log)
        let long = String(repeating: "x", count: AppEventReader.maximumLineBytes + 10)
        try append("\(long)\n{\"device\":\"a\",\"kind\":\"wrote\"}\n{\"device\":\"a\",\"kind\":\"connected\"}\n", to: path)
        #expect(file.poll() == 1)
        #expect(file.problems.count == 2)
        #expect(file.problems[0].hasSuffix("line 1: longer than 4096 bytes; skipped"))
        #expect(file.problems[1].contains("line 2: unknown kind 'wrote'"))
    }
}
