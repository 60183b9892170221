import ArgumentParser

// Placeholder so the command tree compiles while the command is being built;
// replaced by its real implementation.
extension Carousel {
    struct Snap: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "snap",
            abstract: "Where a carousel release comes to rest."
        )

        func run() throws {
            throw CLIError("'snap' is not available yet")
        }
    }
}
