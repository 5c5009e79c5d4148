import ArgumentParser
import LowbandScenarios

/// `lowband report DIR`: renders a recorded session's report.html again from its record.json.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Render a recorded session's report.html again from its record.json.",
        discussion: """
            DIR is a folder `lowband proxy --record DIR` or `lowband explore --exec \
            --keep-sessions` wrote. The report is made from record.json alone: the timeline of \
            every connection by destination, the promises, the legs and the command that gives \
            the same network again. Exit status 0, or 2 when the record cannot be read.
            """
    )

    @Argument(help: "The session folder.")
    var folder: String

    init() {}

    func run() throws {
        do {
            let path = try SessionDocument.renderReport(folder: folder)
            print("wrote \(path)")
        } catch {
            CommandIO.reportError(error, command: "lowband report")
            throw ExitCode(2)
        }
    }
}
