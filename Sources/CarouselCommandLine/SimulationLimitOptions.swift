import ArgumentParser
import MapSync
import MapSyncSimulation

/// `--max-virtual-ms` and `--max-frames`, shared by `simulate`, `focus` and
/// `demo`: how far a scroll script may run before it stops with an error
/// naming the limit (``SimulationLimits``).
struct SimulationLimitOptions: ParsableArguments {
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Stop a simulation that would run past MS ms of virtual time (default 3600000, an hour).", valueName: "MS"))
    var maxVirtualMs: Double?

    @Option(help: ArgumentHelp("Stop a simulation that would draw more than N frames (default 2000000).", valueName: "N"))
    var maxFrames: Int?

    /// The limits, defaulted.
    var limits: SimulationLimits {
        SimulationLimits(
            maxVirtualMs: maxVirtualMs ?? SimulationLimits.standard.maxVirtualMs,
            maxFrames: maxFrames ?? SimulationLimits.standard.maxFrames)
    }

    func validate() throws {
        if let maxVirtualMs, !(maxVirtualMs.isFinite && maxVirtualMs >= 0) {
            throw CLIError("--max-virtual-ms must be a finite number of ms ≥ 0 (got \(maxVirtualMs))")
        }
        if let maxFrames, maxFrames < 0 {
            throw CLIError("--max-frames must be ≥ 0 (got \(maxFrames))")
        }
    }

    /// Runs `body`, turning a limit reached into one line that says which
    /// flag raises it.
    static func naming<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as SimulationLimitError {
            let flag =
                switch error.limit {
                case .virtualTime: "--max-virtual-ms"
                case .frames: "--max-frames"
                }
            throw CLIError("simulation stopped: \(error.reason); raise the limit with \(flag) if this is intended", status: .badData)
        }
    }
}
