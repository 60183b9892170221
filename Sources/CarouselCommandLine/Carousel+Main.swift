import ArgumentParser
import Foundation
import Locks

extension Carousel {
    /// Parses, validates and runs the command; every failure ends in one line
    /// on stderr and the exit status of its kind (``ExitStatus``).
    ///
    /// ArgumentParser's own `main()` would print a validation error with its
    /// help and usage (three or four lines) and exit 1 or 64 depending on
    /// where the error was thrown; here `--help` alone shows usage.
    ///
    /// `network` is what this binary links beyond SQLite (``NetworkFeatures``):
    /// nil in `carousel`, which hands a command line that needs it to
    /// `carousel-net` once it has parsed.
    package static func main(network: (any NetworkFeatures)?) -> Never {
        self.network = network
        StandardOutput.shared.ignoreBrokenPipe()
        let arguments = Array(CommandLine.arguments.dropFirst())
        var command: any ParsableCommand
        do {
            command = try parseSubcommandAlone(arguments) ?? parseAsRoot(arguments)
        } catch {
            // --help and --version are "errors" that exit cleanly.
            if exitCode(for: error) == .success {
                print(fullMessage(for: error))
                Foundation.exit(0)
            }
            let message = CommandSuggestion.unknownCommand(in: arguments, root: self) ?? message(for: error)
            fail(ErrorReport(message: ErrorReport.oneLine(message), status: .usage))
        }
        if network == nil, let command = command as? any ParsableCommandWithCatalog, needsNetwork(command) {
            // Before anything runs: the companion starts the line afresh.
            do { try NetworkCompanion.run(arguments: arguments) } catch { fail(ErrorReport(error)) }
        }
        if let asynchronous = command as? any AsyncParsableCommand {
            finish { try runToCompletion(asynchronous) }
        }
        finish { try command.run() }
    }

    /// Runs an async command (one written against `CatalogEngine`, which
    /// may be PostgreSQL over the network) to completion on this thread.
    ///
    /// Its jobs run here (`Blocking.wait`, on a `CallingThreadExecutor`), not on the
    /// concurrency runtime's thread pool: with the SQLite catalog nothing
    /// ever suspends, and handing the command to a pool thread while this
    /// one waited cost a cold `carousel focus` 1 ms of its ~8 (the pool's
    /// threads started, the catalog opened on another thread). With
    /// PostgreSQL, postgres-nio's event loop resumes the command, which is
    /// queued back to this thread.
    static func runToCompletion(_ command: any AsyncParsableCommand) throws {
        // The command moves to the task and is not touched here again.
        nonisolated(unsafe) var command = command
        try Blocking.wait { try await command.run() }
    }

    /// Runs a parsed command, flushes what it printed and exits: 0, or the
    /// status of what it threw with one line on stderr.
    static func finish(_ run: () throws -> Void) -> Never {
        do {
            try run()
            StandardOutput.shared.flush()
        } catch {
            StandardOutput.shared.flush()
            // `help` and `--help` on a command with subcommands arrive here.
            if exitCode(for: error) == .success {
                print(fullMessage(for: error))
                Foundation.exit(0)
            }
            fail(ErrorReport(error))
        }
        Foundation.exit(ExitStatus.success.rawValue)
    }

    /// The command when the arguments name a subcommand first (after any
    /// `--db PATH`) and parse as that subcommand alone; nil to parse them
    /// from the root.
    ///
    /// Why: parsing from the root builds the argument set of every command
    /// in the tree (ArgumentParser reflects over each with `Mirror`, and
    /// each first cast of a type to one of its protocols scans every
    /// conformance record of the binary), and that was 40 % of a cold
    /// `carousel focus` (BENCHMARKS.md, start-up). The subcommand alone
    /// gives the same command from the same parser. `--db PATH` before the
    /// subcommand means what it means after it (the root and the subcommand
    /// decode the same `DatabaseOptions`), so it is moved there: every order
    /// a user types starts as fast. Anything else — other options before the
    /// subcommand, help, a parse error, a subcommand without `--db` — goes
    /// through the root as before, so usage, help and error messages are
    /// unchanged.
    static func parseSubcommandAlone(_ arguments: [String]) -> (any ParsableCommand)? {
        guard let (name, rest) = subcommandFirst(arguments),
            let subcommand = configuration.subcommands.first(where: { $0._commandName == name }),
            !rest.contains(where: {
                $0 == "-h" || $0 == "--help" || $0 == "help" || $0.hasPrefix("--experimental") || $0.hasPrefix("--generate-completion")
            })
        else { return nil }
        return try? subcommand.parseAsRoot(rest)
    }

    /// The subcommand's name and its arguments, with a leading `--db PATH`
    /// or `--db=PATH` moved after the name; nil when the line starts any
    /// other way, or names `--db` twice.
    static func subcommandFirst(_ arguments: [String]) -> (name: String, rest: [String])? {
        guard let first = arguments.first else { return nil }
        let database: ArraySlice<String>
        if first == "--db", arguments.count >= 3 {
            database = arguments[0..<2]
        } else if first.hasPrefix("--db=") {
            database = arguments[0..<1]
        } else {
            return first.hasPrefix("-") ? nil : (first, Array(arguments.dropFirst()))
        }
        let name = arguments[database.count]
        let rest = arguments[(database.count + 1)...]
        guard !name.hasPrefix("-"), !rest.contains(where: { $0 == "--db" || $0.hasPrefix("--db=") }) else { return nil }
        return (name, Array(database) + rest)
    }

    /// Prints `report` as `Error: message` on stderr and exits with its
    /// status; a list name or file value in the message is escaped like
    /// any data printed to a terminal.
    static func fail(_ report: ErrorReport) -> Never {
        FileHandle.standardError.write(Data("Error: \(report.message.terminalEscaped)\n".utf8))
        Foundation.exit(report.status.rawValue)
    }
}

extension CommandConfiguration {
    /// The configuration of one of `carousel`'s subcommands: the one
    /// ArgumentParser would build, naming `carousel` as the command above.
    ///
    /// Why: ``Carousel/parseSubcommandAlone(_:)`` parses a subcommand as a
    /// root, and ArgumentParser then first tries the line as
    /// `--generate-completion-script` (two more parses, with reflection and
    /// conformance lookups: 17 % of a cold `carousel focus`, by `perf
    /// record` over 100 runs) unless the root names a command above it. A
    /// line that asks for a completion script never takes that path, and
    /// help and usage are built from `carousel` itself (its own command
    /// name first), so the name changes nothing a user sees: a cold `carousel
    /// focus` went from 5.6 to 5.1 ms (hyperfine, 300 runs).
    static func subcommand(
        commandName: String, abstract: String, discussion: String = "",
        subcommands: [any ParsableCommand.Type] = [], defaultSubcommand: (any ParsableCommand.Type)? = nil
    ) -> CommandConfiguration {
        var configuration = CommandConfiguration(
            commandName: commandName, abstract: abstract, discussion: discussion,
            subcommands: subcommands, defaultSubcommand: defaultSubcommand)
        configuration._superCommandName = "carousel"
        return configuration
    }
}
