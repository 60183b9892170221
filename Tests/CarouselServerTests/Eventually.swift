/// Polls `condition` until it holds, for at most `bound` of wall-clock
/// time; whether it held. The caller then asserts what it waited for.
///
/// For effects that land in the background (a session closed, a token's
/// use recorded): on an idle machine they are there at once, and the loop
/// ends on its first or second poll. The bound is generous because the
/// whole suite runs in parallel on this 2-core machine, where a
/// 5 s bound was seen to fail.
@discardableResult
func eventually(within bound: Duration = .seconds(30), _ condition: () async throws -> Bool) async throws -> Bool {
    let deadline = ContinuousClock.now + bound
    while true {
        if try await condition() { return true }
        guard ContinuousClock.now < deadline else { return false }
        try await Task.sleep(for: .milliseconds(10))
    }
}
