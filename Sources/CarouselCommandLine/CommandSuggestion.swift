import ArgumentParser

/// "Did you mean" for a mistyped subcommand: `carousel stors` → `stores`.
enum CommandSuggestion {
    /// The one-line error for `arguments` when they name a subcommand that
    /// does not exist, with the nearest real one if any is close; nil when the
    /// subcommands named are all real (the error is elsewhere).
    static func unknownCommand(in arguments: [String], root: any ParsableCommand.Type) -> String? {
        var command = root
        var path = [root.configuration.commandName ?? "carousel"]
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--" { return nil }
            if argument.hasPrefix("-") {
                // The only option that comes before a subcommand with a value.
                if argument == "--db" { index += 1 }
                continue
            }
            let subcommands = command.configuration.subcommands
            guard !subcommands.isEmpty else { return nil }
            let names = subcommands.map { $0._commandName }
            guard let found = subcommands.first(where: { $0._commandName == argument }) else {
                // A command with a default subcommand takes positional arguments.
                guard command.configuration.defaultSubcommand == nil || looksLikeCommand(argument, names) else { return nil }
                let unknown = "unknown command '\(argument)' for '\(path.joined(separator: " "))'"
                if let near = nearest(to: argument, among: names) {
                    return unknown + "; did you mean '\(near)'?"
                }
                return unknown + "; commands: " + names.joined(separator: ", ")
            }
            command = found
            path.append(argument)
        }
        return nil
    }

    private static func looksLikeCommand(_ argument: String, _ names: [String]) -> Bool {
        nearest(to: argument, among: names) != nil
    }

    /// The name within a third of its length (at least 2) edits of `word`,
    /// the closest first; or one that `word` is a prefix of.
    static func nearest(to word: String, among names: [String]) -> String? {
        let scored = names.map { (name: $0, distance: editDistance(word.lowercased(), $0)) }
            .sorted { ($0.distance, $0.name) < ($1.distance, $1.name) }
        if let best = scored.first, best.distance <= max(2, best.name.count / 3) { return best.name }
        return names.first { word.count >= 2 && $0.hasPrefix(word.lowercased()) }
    }

    /// Levenshtein distance (insertions, deletions, substitutions; Wagner &
    /// Fischer 1974), one row at a time.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        var previous = Array(0...b.count)
        var current = previous
        for i in 1...a.count {
            current[0] = i
            for j in stride(from: 1, through: b.count, by: 1) {
                current[j] = Swift.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
