/// A command line of long options only — `--name value`, `--name=value` and
/// `--flag`, each at most once — read without ArgumentParser; `nil` for
/// anything else, which ArgumentParser then reads (and reports).
///
/// Why it exists: ArgumentParser finds a command's options by reflection
/// (`Mirror` over the command and each option group) and dynamic casts, and
/// each first cast of a type to a protocol makes the Swift runtime scan
/// every protocol conformance record of the binary (8,876 here: Foundation,
/// GRDB, NIO…). Reading `focus`'s command line that way took about half of
/// a cold `carousel focus` (BENCHMARKS.md, start-up). A command that offers
/// a plain reading accepts only a subset of what ArgumentParser accepts, and
/// its tests check that wherever the plain reading answers, ArgumentParser
/// parses the same values: it can skip work, never change a meaning.
///
/// The grammar, chosen so that it agrees with ArgumentParser's wherever it
/// answers:
/// - every argument is `--name` or `--name=value`, or the value following a
///   `--name` that takes one; nothing positional, no `--` and no short
///   options (`-h` included);
/// - a value is never empty, and starts with `-` only for options listed as
///   `unconditional` — ArgumentParser's own term for an option whose value
///   may look like an option, as `--offset -312` does;
/// - no name twice, no value given to a flag, no unknown name.
struct PlainCommandLine {
    /// The value of each option given, by name without the dashes.
    private(set) var values: [String: String] = [:]
    /// The flags given, by name without the dashes.
    private(set) var flags: Set<String> = []

    /// Reads `arguments`, or returns nil where they leave the grammar.
    /// - Parameters:
    ///   - options: names (without `--`) that take a value;
    ///   - unconditional: those of `options` whose value may start with `-`;
    ///   - flags: names that take none.
    init?(_ arguments: ArraySlice<String>, options: Set<String>, unconditional: Set<String> = [], flags: Set<String> = []) {
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            guard argument.hasPrefix("--") else { return nil }
            let body = argument.dropFirst(2)
            let name: String, attached: String?
            if let equals = body.firstIndex(of: "=") {
                (name, attached) = (String(body[..<equals]), String(body[body.index(after: equals)...]))
            } else {
                (name, attached) = (String(body), nil)
            }
            if flags.contains(name) {
                guard attached == nil, self.flags.insert(name).inserted else { return nil }
                continue
            }
            guard options.contains(name), values[name] == nil, let value = attached ?? rest.popFirst(),
                !value.isEmpty, unconditional.contains(name) || !value.hasPrefix("-")
            else { return nil }
            values[name] = value
        }
    }
}
