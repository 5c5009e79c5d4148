import ArgumentParser
import Foundation
import LowbandScenarios

extension ProxyCommand {
    /// `--replay DIR`: the recorded command line with the options given now laid over it (a
    /// later option wins), then served with the recorded changes played at their times. A
    /// folder that is no recorded proxy session is refused in one line, exit 2, before anything
    /// listens; nothing in it is touched.
    func runReplay(_ folder: String) async throws {
        let session: SessionReplay
        let replayed: ProxyCommand
        let words: [String]
        do {
            session = try SessionReplay.read(folder: folder)
            words = session.arguments + Self.overrides()
            replayed = try ProxyCommand.parse(words)
            let normalized = { (path: String) in URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path }
            if let record = replayed.record, normalized(record) == normalized(folder) || normalized(record).hasPrefix(normalized(folder) + "/") {
                throw CommandIO.IOError(description: "--record \(record) would write over the session being replayed; record the replay into another folder")
            }
        } catch {
            throw CommandIO.failure(error, command: "lowband proxy --replay", status: 2)
        }
        Self.log("replaying \(folder): lowband proxy \(CommandWords.join(words))")
        try await replayed.serveUntilStopped(replay: session, recordedWith: CommandWords.join(["lowband", "proxy"] + words))
    }

    /// The options given with `--replay` on this command line, other than `--replay DIR` itself.
    private static func overrides() -> [String] {
        let arguments = Array(CommandLine.arguments.dropFirst())
        guard let start = arguments.firstIndex(of: "proxy") else { return [] }
        var words: [String] = []
        var index = start + 1
        while index < arguments.count {
            if arguments[index] == "--replay" {
                index += 2
                continue
            }
            if arguments[index].hasPrefix("--replay=") {
                index += 1
                continue
            }
            words.append(arguments[index])
            index += 1
        }
        return words
    }
}
