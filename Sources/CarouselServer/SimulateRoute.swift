import CarouselJSON
import CatalogServing
import Foundation
import Hummingbird
import HummingbirdWebSocket
import MapSync
import MapSyncCatalog
import MapSyncSimulation
import NIOCore
import StoreCatalog
import TextInput
import WorkLanes

/// `POST /simulate` with `{"list": NAME, "script": {…}, "trace": false}`:
/// the script run in virtual time, its timeline as a JSON array of the
/// lines `simulate --json` prints.
struct SimulateRoute {
    /// The lists simulations run over, shared with live sessions.
    let lists: SharedLists
    let limits: ServerLimits
    /// The runs going on now, at most ``ServerLimits/maxConcurrentSimulations``.
    let gate: WorkGate

    func register(on router: Router<CarouselRequestContext>) {
        router.post("/simulate") { request, context in try await handle(request, context) }
    }

    func handle(_ request: Request, _ context: some RequestContext) async throws -> Response {
        // At once, before the gate: not after waiting for a MiB of body.
        try request.refuseDeclaredBody(over: limits.maxJSONBody, advice: "shorten the script")
        return try await gate.run { try await simulate(request) }
    }

    private func simulate(_ request: Request) async throws -> Response {
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: limits.maxJSONBody)
        } catch is NIOTooManyBytesError {
            throw APIError.tooLarge("the body is over \(limits.maxJSONBody) bytes")
        } catch let error as HTTPError where error.status == .contentTooLarge {
            throw APIError.tooLarge("the body is over \(limits.maxJSONBody) bytes")
        }
        let (list, script, trace) = try Self.parse(Data(buffer: body), limits: limits)
        let stores: CatalogStoreDirectory
        do {
            guard let version = try await lists.engine.listVersion(named: list) else { throw CatalogError.listNotFound(list) }
            stores = try await lists.directory(list: list, version: version)
        } catch let error as CatalogError {
            throw APIError(error)
        }
        let maxBytes = limits.maxTimelineBytes, simulationLimits = limits.simulation
        // Seconds of computation for a long script: bulk work.
        let timeline = try await WorkLane.bulk.run {
            try Self.timeline(of: script, over: stores, trace: trace, limits: simulationLimits, maxBytes: maxBytes)
        }
        return .json(timeline)
    }

    /// The JSON array of `script`'s timeline over `stores`, at most
    /// `maxBytes`; a script the stores cannot run, or a timeline past the
    /// size, is refused (422).
    static func timeline(
        of script: ScrollScript, over stores: some StoreDirectory, trace: Bool, limits: SimulationLimits, maxBytes: Int
    ) throws -> String {
        let simulator: ScrollSimulation
        do {
            simulator = try ScrollSimulation(script: script, stores: stores)
        } catch {
            throw APIError.unprocessable("bad_script", "\(error)")
        }
        // Built as the run goes, and stopped past the limit: a long
        // traced script would otherwise make tens of MB of lines.
        let text = TimelineText(maxBytes: maxBytes)
        do {
            _ = try simulator.run(trace: trace, limits: limits) { entry in try text.append(TimelineJSON.line(entry)) }
        } catch let error as SimulationLimitError {
            throw APIError.unprocessable("bad_script", error.description)
        } catch is TimelineText.TooLong {
            throw APIError.unprocessable(
                "timeline_too_long",
                "the timeline is over \(maxBytes) bytes; shorten the script\(trace ? " or leave trace off" : "")")
        }
        return text.finished()
    }

    /// The list, the script (checked as the CLI checks a script file) and
    /// whether to trace; a script too long in time or events is refused.
    static func parse(_ data: Data, limits: ServerLimits) throws(APIError) -> (String, ScrollScript, Bool) {
        guard case .object(let members)? = try? JSONValue.parse(data, name: "the body") else {
            throw .badBody("the body must be a JSON object {\"list\", \"script\"}")
        }
        let body = JSONValue.object(members)
        let unknown = Set(body.keys).subtracting(["list", "script", "trace"])
        guard unknown.isEmpty else { throw .badBody("unknown key \(unknown.sorted()[0]); the body takes list, script, trace") }
        guard case .string(let list) = body["list"], !list.allSatisfy(\.isWhitespace) else {
            throw .badBody("list must be a list name")
        }
        guard let scriptDocument = body["script"], case .object = scriptDocument else {
            throw .badBody("script must be a scroll script object {\"layout\", \"events\"}")
        }
        let trace: Bool
        switch body["trace"] {
        case nil, .null?: trace = false
        case .bool(let value)?: trace = value
        default: throw .badBody("trace must be true or false")
        }
        let script: ScrollScript
        do throws(ScrollScriptError) {
            script = try ScrollScript(document: scriptDocument)
        } catch {
            throw .unprocessable("bad_script", error.description)
        }
        guard script.events.count <= limits.maxScriptEvents else {
            throw .unprocessable("bad_script", "the script has \(script.events.count) events; at most \(limits.maxScriptEvents)")
        }
        // An event past the virtual-time limit is refused before anything
        // runs, in the simulation's own words; one that only ends past it (a
        // long drag, a fling) stops the run when it gets there.
        for (position, event) in script.events.enumerated() where event.at > limits.simulation.maxVirtualMs {
            throw .unprocessable(
                "bad_script",
                "event \(position + 1) is at \(event.at) ms, past the limit of \(Int(limits.simulation.maxVirtualMs)) ms of virtual time")
        }
        return (list, script, trace)
    }
}

/// A timeline's JSON array built line by line, up to a size: the run
/// stops (``TooLong``) at the line that would pass it.
private final class TimelineText: @unchecked Sendable {
    // @unchecked: used by one simulation, on one thread.
    struct TooLong: Error {}

    private let maxBytes: Int
    private var text = "["

    init(maxBytes: Int) {
        self.maxBytes = maxBytes
    }

    func append(_ line: String) throws {
        // ",\n" before every line but the first, "]" at the end.
        guard text.utf8.count + line.utf8.count + 3 <= maxBytes else { throw TooLong() }
        if text.utf8.count > 1 { text += ",\n" }
        text += line
    }

    func finished() -> String {
        text + "]"
    }
}
