import ArgumentParser

// Placeholder so the command tree compiles while the command is being built;
// replaced by its real implementation.
extension Carousel {
    struct Demo: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "demo",
            abstract: "Run the main job on the bundled sample data."
        )

        func run() throws {
            throw CLIError("'demo' is not available yet")
        }
    }
}
