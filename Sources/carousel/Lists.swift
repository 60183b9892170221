import ArgumentParser

// Placeholder so the command tree compiles while the command is being built;
// replaced by its real implementation.
extension Carousel {
    struct Lists: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "lists",
            abstract: "The store lists with their store counts."
        )

        func run() throws {
            throw CLIError("'lists' is not available yet")
        }
    }
}
