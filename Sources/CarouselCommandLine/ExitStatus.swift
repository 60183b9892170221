import Foundation

/// The exit status of `carousel`, by kind of failure, so that a script can
/// tell a typo from a missing file whatever the command.
///
/// The numbers are BSD's `sysexits.h` ones, which shells and service
/// managers already know: 64 for a wrong command line, 65 for wrong input
/// data, 66 for input that is not there, 74 for a failed read or write.
package enum ExitStatus: Int32, Sendable, CaseIterable {
    case success = 0
    /// The command line is wrong: an unknown command or flag, a missing or
    /// malformed value, flags that do not go together, a list name taken.
    case usage = 64
    /// The input is wrong: invalid store rows, a malformed scroll script, a
    /// file that is not a carousel database or is from a newer carousel.
    case badData = 65
    /// What the command names is not there: no such file, no such list.
    case missingInput = 66
    /// Reading or writing failed: permissions, a full disk, a locked or
    /// damaged database, an output that cannot be created.
    case io = 74

    /// What the status means, for `--help`.
    var meaning: String {
        switch self {
        case .success: "success"
        case .usage: "wrong command line (unknown command or flag, bad value)"
        case .badData: "bad input data (invalid rows, malformed script, not a carousel database)"
        case .missingInput: "missing input (no such file or list)"
        case .io: "read or write failure (permissions, full disk, locked database)"
        }
    }

    /// Every status with its meaning, one per line, for the root command's help.
    static var table: String {
        allCases.map { "  \($0.rawValue)  \($0.meaning)" }.joined(separator: "\n")
    }
}
