import ArgumentParser
import Foundation

extension Carousel {
    /// Parses, validates and runs the command; every failure ends in one line
    /// on stderr and the exit status of its kind (``ExitStatus``).
    ///
    /// ArgumentParser's own `main()` would print a validation error with its
    /// help and usage (three or four lines) and exit 1 or 64 depending on
    /// where the error was thrown; here `--help` alone shows usage.
    static func main() {
        StandardOutput.shared.ignoreBrokenPipe()
        let arguments = Array(CommandLine.arguments.dropFirst())
        // `focus --list L --offset X`, sent at every swipe, skips
        // ArgumentParser's reflection; any other line is parsed below.
        if let focus = Focus.AtOffset(commandLine: arguments) {
            finish { try focus.run() }
        }
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
        finish { try command.run() }
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

    /// The command when the arguments start with a subcommand's name and
    /// parse as that subcommand alone; nil to parse them from the root.
    ///
    /// Why: parsing from the root builds the argument set of every command
    /// in the tree (ArgumentParser reflects over each with `Mirror`, and
    /// each first cast of a type to one of its protocols scans every
    /// conformance record of the binary), and that was 40 % of a cold
    /// `carousel focus` (BENCHMARKS.md, start-up). The subcommand alone
    /// gives the same command from the same parser. Anything else —
    /// options before the subcommand, help, a parse error — goes through
    /// the root as before, so usage, help and error messages are unchanged.
    static func parseSubcommandAlone(_ arguments: [String]) -> (any ParsableCommand)? {
        guard let name = arguments.first,
            let subcommand = configuration.subcommands.first(where: { $0._commandName == name }),
            !arguments.contains(where: {
                $0 == "-h" || $0 == "--help" || $0 == "help" || $0.hasPrefix("--experimental") || $0.hasPrefix("--generate-completion")
            })
        else { return nil }
        return try? subcommand.parseAsRoot(Array(arguments.dropFirst()))
    }

    /// Prints `report` as `Error: message` on stderr and exits with its
    /// status; a list name or file value in the message is escaped like
    /// any data printed to a terminal.
    static func fail(_ report: ErrorReport) -> Never {
        FileHandle.standardError.write(Data("Error: \(report.message.terminalEscaped)\n".utf8))
        Foundation.exit(report.status.rawValue)
    }
}
