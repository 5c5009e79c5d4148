import ArgumentParser

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension Lowband {
    /// Parses `arguments`, runs the command they name and returns the process's exit status.
    ///
    /// Help prints as ArgumentParser prints it (stdout, status 0). Every other failure is one
    /// line on stderr, `lowband <command>: error: <what and where>`: an argument error (unknown
    /// option, bad value, conflicting options — ArgumentParser's 64) gets status 1, or the
    /// command's ``ArgumentErrorStatus``; a command that already printed its line and threw an
    /// `ExitCode` keeps that code; any other error thrown by `run()` is its line and status 1.
    package static func runReportingOneLine(_ arguments: [String]) async -> Int32 {
        var parsed: (any ParsableCommand)?
        do {
            var command = try parseAsRoot(arguments)
            parsed = command
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
            return ExitCode.success.rawValue
        } catch {
            return status(for: error, parsed: parsed, arguments: arguments)
        }
    }

    /// Runs a command that must run without Swift's concurrency runtime (``RunsWithoutConcurrency``)
    /// on this thread, as ``runReportingOneLine(_:)`` would; nil when `arguments` name another
    /// command or do not parse (``runReportingOneLine(_:)`` then reports them).
    package static func runWithoutConcurrency(_ arguments: [String]) -> Int32? {
        // Named by its words first, so other commands are parsed (and validated) once, later.
        guard CommandPath.command(named: arguments) is any RunsWithoutConcurrency.Type,
              var command = try? parseAsRoot(arguments), command is any RunsWithoutConcurrency else { return nil }
        do {
            try command.run()
            return ExitCode.success.rawValue
        } catch {
            return status(for: error, parsed: command, arguments: arguments)
        }
    }

    /// The exit status for `error`, its one line written to stderr (help to stdout).
    private static func status(for error: any Error, parsed: (any ParsableCommand)?, arguments: [String]) -> Int32 {
        if let code = error as? ExitCode { return code.rawValue }
        let code = exitCode(for: error)
        if code == .success {
            let text = fullMessage(for: error)
            if !text.isEmpty { print(text) }
            return code.rawValue
        }
        let command = parsed.map { type(of: $0) } ?? CommandPath.command(named: arguments)
        let name = CommandPath.of(command).joined(separator: " ")
        var text = message(for: error)
        if code == .validationFailure {
            text = CommandPath.clarify(text, arguments: arguments) + " (see '\(name) --help')"
        }
        CommandIO.reportError(CommandIO.IOError(description: text), command: name)
        guard code == .validationFailure else { return code.rawValue }
        return (command as? any ArgumentErrorStatus.Type)?.argumentErrorStatus ?? ExitCode.failure.rawValue
    }
}

/// A command run on the main thread before Swift's concurrency runtime starts, never after it
/// (`lowband codecs count`, run under valgrind: valgrind 3.19 crashes on a Swift async main once
/// it starts a thread, "VALGRIND INTERNAL ERROR: Valgrind received a signal 11"). Only for a
/// command that is not async and needs no main actor.
protocol RunsWithoutConcurrency {}

/// A command whose exit status 1 means something else (`compare`: a regression) gives its bad
/// arguments this status instead of 1.
protocol ArgumentErrorStatus {
    static var argumentErrorStatus: Int32 { get }
}

/// The words that name a command of the `lowband` tree, such as `["lowband", "client", "send"]`.
enum CommandPath {
    /// The path to `command` in the tree under ``Lowband``; just `lowband` when it is not there.
    static func of(_ command: any ParsableCommand.Type) -> [String] {
        find(command, under: Lowband.self, path: [name(of: Lowband.self)]) ?? [name(of: Lowband.self)]
    }

    /// The command that `arguments` name, as ArgumentParser finds it: every word that names a
    /// subcommand of the command found so far descends into it; options and values are skipped.
    /// A parse error does not say which command it belongs to, so its line is named after this.
    static func command(named arguments: [String]) -> any ParsableCommand.Type {
        var current: any ParsableCommand.Type = Lowband.self
        for word in arguments {
            if word == "--" { break }
            guard !word.hasPrefix("-"), let next = child(of: current, named: word) else { continue }
            current = next
        }
        return current
    }

    /// ArgumentParser reads `--count -3` as `--count` without a value and says "Missing value
    /// for '--count <count>'"; this says that the value was there and why it was not taken.
    static func clarify(_ message: String, arguments: [String]) -> String {
        let prefix = "Missing value for '"
        guard message.hasPrefix(prefix), let option = message.dropFirst(prefix.count).split(separator: " ").first else { return message }
        guard let index = arguments.firstIndex(of: String(option)), index + 1 < arguments.count else { return message }
        let value = arguments[index + 1]
        guard value.hasPrefix("-"), Double(value) != nil else { return message }
        return "\(option) \(value): a negative number is not allowed here"
    }

    private static func find(_ target: any ParsableCommand.Type, under node: any ParsableCommand.Type, path: [String]) -> [String]? {
        if node == target { return path }
        for child in node.configuration.subcommands {
            if let found = find(target, under: child, path: path + [name(of: child)]) { return found }
        }
        return nil
    }

    private static func child(of command: any ParsableCommand.Type, named word: String) -> (any ParsableCommand.Type)? {
        command.configuration.subcommands.first { name(of: $0) == word || $0.configuration.aliases.contains(word) }
    }

    private static func name(of command: any ParsableCommand.Type) -> String {
        command.configuration.commandName ?? String(describing: command).lowercased()
    }
}
