import ArgumentParser

// Placeholder so the command tree compiles while the command is being built;
// replaced by its real implementation.
extension Carousel {
    struct Near: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "near",
            abstract: "The stores nearest a point."
        )

        func run() throws {
            throw CLIError("'near' is not available yet")
        }
    }
}
