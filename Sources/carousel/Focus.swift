import ArgumentParser

// Placeholder so the command tree compiles while the command is being built;
// replaced by its real implementation.
extension Carousel {
    struct Focus: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "focus",
            abstract: "The focused store at an offset or after a scroll script."
        )

        func run() throws {
            throw CLIError("'focus' is not available yet")
        }
    }
}
