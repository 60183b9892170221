import CarouselJSON
import Foundation
import Hummingbird
import HummingbirdWebSocket
import MapSync
import MapSyncCatalog
import NIOCore
import StoreCatalog

/// `POST /simulate` with `{"list": NAME, "script": {…}, "trace": false}`:
/// the script run in virtual time, its timeline as a JSON array of the
/// lines `simulate --json` prints.
struct SimulateRoute {
    let catalog: Catalog
    let limits: ServerLimits

    func register(on router: Router<CarouselRequestContext>) {
        router.post("/simulate") { request, context in try await handle(request, context) }
    }

    func handle(_ request: Request, _ context: some RequestContext) async throws -> Response {
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: limits.maxJSONBody)
        } catch is NIOTooManyBytesError {
            throw APIError.tooLarge("the body is over \(limits.maxJSONBody) bytes")
        } catch let error as HTTPError where error.status == .contentTooLarge {
            throw APIError.tooLarge("the body is over \(limits.maxJSONBody) bytes")
        }
        let (list, script, trace) = try parse(Data(buffer: body))
        let catalog = catalog
        let timeline = try await Offload.run { () throws -> [String] in
            let stores: CatalogStoreDirectory
            do {
                stores = try CatalogStoreDirectory(catalog: catalog, list: list)
            } catch let error as CatalogError {
                throw APIError(error)
            }
            let simulator: ScrollSimulation
            do {
                simulator = try ScrollSimulation(script: script, stores: stores)
            } catch {
                throw APIError.unprocessable("bad_script", "\(error)")
            }
            return try simulator.run(trace: trace).timeline.map(TimelineJSON.line)
        }
        return .json("[" + timeline.joined(separator: ",\n") + "]")
    }

    /// The list, the script (checked as the CLI checks a script file) and
    /// whether to trace; a script too long in time or events is refused.
    private func parse(_ data: Data) throws(APIError) -> (String, ScrollScript, Bool) {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw .badBody("the body must be a JSON object {\"list\", \"script\"}")
        }
        let unknown = Set(object.keys).subtracting(["list", "script", "trace"])
        guard unknown.isEmpty else { throw .badBody("unknown key \(unknown.sorted()[0]); the body takes list, script, trace") }
        guard let list = object["list"] as? String, !list.allSatisfy(\.isWhitespace) else {
            throw .badBody("list must be a list name")
        }
        guard let scriptObject = object["script"] as? [String: Any],
            let scriptData = try? JSONSerialization.data(withJSONObject: scriptObject)
        else { throw .badBody("script must be a scroll script object {\"layout\", \"events\"}") }
        // JSONDecoder, not a cast: JSONSerialization may hand 1 over as true.
        struct Trace: Decodable { var trace: Bool? }
        guard let trace = try? JSONDecoder().decode(Trace.self, from: data).trace ?? false else {
            throw .badBody("trace must be true or false")
        }
        let script: ScrollScript
        do {
            script = try ScrollScript(json: scriptData)
        } catch {
            throw .unprocessable("bad_script", error.description)
        }
        guard script.events.count <= limits.maxScriptEvents else {
            throw .unprocessable("bad_script", "the script has \(script.events.count) events; at most \(limits.maxScriptEvents)")
        }
        for (position, event) in script.events.enumerated() {
            var end = event.at
            if case .drag(_, let durationMs, _) = event.action { end += durationMs }
            guard end <= limits.maxScriptMs else {
                throw .unprocessable(
                    "bad_script", "event \(position + 1) runs to \(end) ms; a script may run to \(Int(limits.maxScriptMs)) ms")
            }
        }
        return (list, script, trace)
    }
}
