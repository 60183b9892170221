import ArgumentParser

// Placeholder so the command tree compiles while the command is being built;
// replaced by its real implementation.
extension Carousel {
    struct Bbox: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "bbox",
            abstract: "The stores inside a bounding box."
        )

        func run() throws {
            throw CLIError("'bbox' is not available yet")
        }
    }
}
