import ArgumentParser

// Placeholder so the command tree compiles while the command is being built;
// replaced by its real implementation.
extension Carousel {
    struct Simulate: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "simulate",
            abstract: "Simulate a scroll script and print the map-target timeline."
        )

        func run() throws {
            throw CLIError("'simulate' is not available yet")
        }
    }
}
