/// A user error: printed as one line on stderr (`Error: …`), with the
/// exit status of its ``ExitStatus`` kind, never a stack trace.
///
/// The message says what went wrong and, where it can, what to do.
package struct CLIError: Error, CustomStringConvertible {
    package var description: String
    package var status: ExitStatus

    /// A `status` error (by default a wrong command line).
    package init(_ description: String, status: ExitStatus = .usage) {
        self.description = description
        self.status = status
    }
}
