/// A user error: printed as one line on stderr, exit status 1, no stack trace.
///
/// ArgumentParser prints an error's `description` after `Error: `, so the
/// message says what went wrong and, where it can, what to do.
struct CLIError: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}
