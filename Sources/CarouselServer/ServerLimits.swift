/// What the server accepts at most from one client, so no request can take
/// unbounded memory, disk or time.
public struct ServerLimits: Sendable, Hashable {
    /// The longest request target (path and query), in bytes; longer is 414.
    public var maxURLLength = 4096
    /// The largest JSON body (`POST /simulate`), in bytes; larger is 413.
    public var maxJSONBody = 1 << 20
    /// The largest import body, in bytes, streamed to a temporary file; larger is 413.
    public var maxImportBody = 512 << 20
    /// The most stores one response carries (`limit` above it is 400).
    public var maxLimit = 1000
    /// The latest event time of a simulated script, in ms (10 minutes of
    /// scrolling): a script's cost grows with its length in time.
    public var maxScriptMs = 600_000.0
    /// The most events of a simulated script.
    public var maxScriptEvents = 10_000
    /// The largest WebSocket message of a session, in bytes.
    public var maxSessionMessage = 1 << 14

    public init() {}
}
