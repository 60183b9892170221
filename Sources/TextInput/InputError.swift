/// Why input could not be read: the file would not open or read, or a row
/// ran past its length limit. The store catalog turns it into its
/// `ImportFileError`; a scroll script into its own error.
package struct InputError: Error, Hashable {
    /// The file, or the name the input was given.
    package var path: String
    /// The 1-based line of the problem, when it is at one place.
    package var line: Int?
    /// What is wrong.
    package var reason: String

    package init(path: String, line: Int? = nil, reason: String) {
        self.path = path
        self.line = line
        self.reason = reason
    }
}
