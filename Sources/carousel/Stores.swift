import ArgumentParser

// Placeholder so the command tree compiles while the command is being built;
// replaced by its real implementation.
extension Carousel {
    struct Stores: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "stores",
            abstract: "A list's stores in carousel order."
        )

        func run() throws {
            throw CLIError("'stores' is not available yet")
        }
    }
}
