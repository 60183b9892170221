import MapSyncSimulation

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
    /// The most changes one page of `GET /lists/{name}/changes` carries:
    /// a device's first download takes pages of 5,000 (issue 45).
    public var maxChangePage = 10_000
    /// How far a `POST /simulate` run may go: 10 minutes of virtual time
    /// (a script's cost grows with its length in time) and the library's
    /// frame limit. Past either, the run stops and is answered 422.
    public var simulation = SimulationLimits(maxVirtualMs: 600_000, maxFrames: SimulationLimits.standard.maxFrames)
    /// The most events of a simulated script (its size is already bounded
    /// by ``maxJSONBody``; this bounds the work per event).
    public var maxScriptEvents = 10_000
    /// The largest WebSocket message of a session, in bytes.
    public var maxSessionMessage = 1 << 14
    /// The most imports that run at once; one more is answered 503 with
    /// `Retry-After` before its body is read.
    public var maxConcurrentImports = 2
    /// The most `POST /simulate` runs at once; one more is answered 503.
    public var maxConcurrentSimulations = 2
    /// The largest `POST /simulate` response, in bytes: a timeline past it
    /// is refused (422 `timeline_too_long`) rather than built, so a run
    /// holds at most this much (a 648 KB traced script made 54.8 MB).
    public var maxTimelineBytes = 8 << 20

    public init() {}
}
