package import ArgumentParser

/// The root of the `lowband` command tree.
package struct Lowband: AsyncParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "lowband",
        abstract: "Messenger client engine, shaping proxy and benchmarks for 2G/EDGE/3G networks.",
        subcommands: [RunCommand.self, ExploreCommand.self, ExplainCommand.self, RoundTripCommand.self, FramesCommand.self, MessagePackCommand.self, LZ4Command.self, ProfilesCommand.self, ProxyCommand.self, ServerCommand.self, ClientCommand.self, SoakCommand.self, StartupCommand.self, CodecsCommand.self, CompareCommand.self, BenchCommand.self, TraceCommand.self, ReportCommand.self, ShellCommand.self]
    )

    package init() {}
}
