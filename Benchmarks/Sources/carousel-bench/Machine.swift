import Foundation

/// The machine and moment a run measured: printed with every table, since
/// figures mean nothing without them.
struct Machine {
    var processors: Int
    var cpuModel: String
    var memoryBytes: Int
    var swiftVersion: String
    var date: Date

    /// The machine this process runs on; `swiftVersion` comes from the
    /// caller (`scripts/benchmark` passes `swift --version`).
    static func current(swiftVersion: String) -> Machine {
        Machine(
            processors: ProcessInfo.processInfo.activeProcessorCount,
            cpuModel: procField("/proc/cpuinfo", "model name") ?? "unknown CPU",
            memoryBytes: Int(ProcessInfo.processInfo.physicalMemory),
            swiftVersion: swiftVersion,
            date: Date()
        )
    }

    /// The 1-, 5- and 15-minute load averages (`/proc/loadavg`): other
    /// engineers build on this machine too, so every run notes the load.
    static func loadAverage() -> String {
        guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return "unknown" }
        return text.split(separator: " ").prefix(3).joined(separator: " ")
    }

    /// The value of the first `key: value` line of a /proc file.
    private static func procField(_ path: String, _ key: String) -> String? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(key) {
            guard let colon = line.firstIndex(of: ":") else { continue }
            return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return nil
    }
}

extension Machine: CustomStringConvertible {
    var description: String {
        let date = ISO8601DateFormatter().string(from: self.date)
        let memory = String(format: "%.1f GiB", Double(memoryBytes) / 1_073_741_824)
        return """
            machine: \(processors) × \(cpuModel), \(memory) RAM
            date:    \(date)
            swift:   \(swiftVersion)
            """
    }
}
