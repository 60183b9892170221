/// A benchmark that cannot run or whose check fails: one line saying what
/// and what to do; the run stops with a non-zero exit.
struct BenchError: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}
