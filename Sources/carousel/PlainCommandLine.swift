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
    // Arrays, not a dictionary and sets: a few names each, and every
    // generic type that the process has not used yet is one more for the
    // runtime to build at start (3 % of a cold `focus` for a `Set<String>`).
    private var values: [(name: String, value: String)] = []
    private var flags: [String] = []

    /// Reads `arguments`, or returns nil where they leave the grammar.
    /// - Parameters:
    ///   - options: names (without `--`) that take a value;
    ///   - unconditional: those of `options` whose value may start with `-`;
    ///   - flags: names that take none.
    init?(_ arguments: ArraySlice<String>, options: [String], unconditional: [String] = [], flags: [String] = []) {
        var rest = arguments
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
                guard attached == nil, !self.flags.contains(name) else { return nil }
                self.flags.append(name)
                continue
            }
            guard options.contains(name), value(name) == nil, let value = attached ?? rest.popFirst(),
                !value.isEmpty, unconditional.contains(name) || !value.hasPrefix("-")
            else { return nil }
            values.append((name, value))
        }
    }

    /// The value given to option `name` (without the dashes), if any.
    func value(_ name: String) -> String? {
        values.first { $0.name == name }?.value
    }

    /// Whether flag `name` (without the dashes) was given.
    func contains(flag name: String) -> Bool {
        flags.contains(name)
    }
}
