import Foundation

/// Reports progress on stderr, so that stdout carries the table alone.
func progress(_ message: String) {
    FileHandle.standardError.write(Data(("· " + message + "\n").utf8))
}
