import Foundation
import StoreCatalog

/// A server's list, as a replica reads it: `GET {server}/lists/{list}/changes`.
public struct ChangeSource: Sendable {
    /// The server's base URL (`https://stores.example.com`).
    public let server: URL
    /// The list's name on the server.
    public let list: String
    /// A read token, sent as `Authorization: Bearer`.
    public let token: String?
    public let transport: any ChangeTransport

    public init(server: URL, list: String, token: String? = nil, transport: any ChangeTransport = URLSessionTransport()) {
        self.server = server
        self.list = list
        self.token = token
        self.transport = transport
    }

    /// What the replica stores as its source: a cursor is only good for
    /// the server and list that gave it.
    var identity: String { "\(server.absoluteString)#\(list)" }

    /// The page after `since`, and how many bytes it took.
    func page(since: String?, limit: Int) async throws -> (page: ChangePage, bytes: Int) {
        guard var components = URLComponents(url: server, resolvingAgainstBaseURL: false) else {
            throw SyncError.badServer("'\(server)' is not a URL")
        }
        var path = components.percentEncodedPath
        if path.hasSuffix("/") { path.removeLast() }
        let name = list.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? list
        components.percentEncodedPath = path + "/lists/\(name)/changes"
        var items = [URLQueryItem(name: "limit", value: String(limit))]
        if let since { items.append(URLQueryItem(name: "since", value: since)) }
        components.queryItems = items
        guard let url = components.url else { throw SyncError.badServer("'\(server)' is not a URL") }
        var headers = ["Accept": "application/json"]
        if let token { headers["Authorization"] = "Bearer \(token)" }
        let (status, body) = try await transport.get(url, headers: headers)
        switch status {
        case 200: return (try ChangePageDecoding.decode(body), body.count)
        case 410: throw SyncError.resyncRequired
        default: throw SyncError.server(status: status, message: ChangePageDecoding.errorMessage(body))
        }
    }
}

/// Why a sync stopped. The replica is as the last page applied left it:
/// the next ``CatalogReplica/sync(pageSize:progress:)`` resumes there.
public enum SyncError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The server answered an error (its status and message).
    case server(status: Int, message: String)
    /// The server could not be reached (what the transport said).
    case unreachable(String)
    /// The server's answer is not a page of changes, or does not follow
    /// the replica's cursor.
    case badServer(String)
    /// The cursor is older than the server keeps (HTTP 410); the replica
    /// downloads the list again.
    case resyncRequired
    /// The replica kept failing its checksum after downloading again.
    case checksumMismatch(String)

    public var description: String {
        switch self {
        case let .server(status, message): "the server answered \(status): \(message)"
        case .unreachable(let reason): "cannot reach the server: \(reason)"
        case .badServer(let reason): "the server's answer is not a page of changes: \(reason)"
        case .resyncRequired: "the server no longer has the changes since the last sync; the list is downloaded again"
        case .checksumMismatch(let reason): "the downloaded list does not match the server's: \(reason)"
        }
    }
}

/// The JSON of a page, read strictly: anything else is ``SyncError/badServer(_:)``.
enum ChangePageDecoding {
    struct Page: Decodable {
        var changes: [Change]
        var next: String
        var upToDate: Bool
        var checksum: String?
        var exists: Bool
    }

    struct Change: Decodable {
        var seq: Int64
        var id: String
        var rank: Int64?
        var deleted: Bool?
        var store: Record?
    }

    struct Record: Decodable {
        var name: String
        var latitude: Double
        var longitude: Double
        var address: String?
        var category: String?
        var phone: String?
        var attributesJSON: String?
    }

    static func decode(_ body: Data) throws -> ChangePage {
        let page: Page
        do {
            page = try JSONDecoder().decode(Page.self, from: body)
        } catch {
            throw SyncError.badServer("\(body.count) bytes that are not a page's JSON")
        }
        var changes: [StoreChange] = []
        changes.reserveCapacity(page.changes.count)
        for change in page.changes {
            if change.deleted == true {
                guard change.rank == nil, change.store == nil else { throw SyncError.badServer("a deleted store with a rank") }
                changes.append(StoreChange(sequence: change.seq, id: change.id, rank: nil, store: nil))
            } else {
                guard let rank = change.rank, let store = change.store else {
                    throw SyncError.badServer("store '\(change.id.prefix(40))' comes without its rank or its data")
                }
                let record = StoreRecord(
                    id: change.id, name: store.name, latitude: store.latitude, longitude: store.longitude, address: store.address,
                    category: store.category, phone: store.phone, attributes: store.attributesJSON)
                changes.append(StoreChange(sequence: change.seq, id: change.id, rank: rank, store: record))
            }
        }
        guard !page.next.isEmpty, page.next.utf8.count <= 64 else { throw SyncError.badServer("a page without a cursor") }
        return ChangePage(changes: changes, next: page.next, upToDate: page.upToDate, checksum: page.checksum, exists: page.exists)
    }

    /// The message of the server's `{"error":{"message"}}`, or the body's start.
    static func errorMessage(_ body: Data) -> String {
        struct Envelope: Decodable {
            struct Inner: Decodable { var message: String }
            var error: Inner
        }
        if let envelope = try? JSONDecoder().decode(Envelope.self, from: body) { return envelope.error.message }
        return String(decoding: body.prefix(120), as: UTF8.self)
    }
}
