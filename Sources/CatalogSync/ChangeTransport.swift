import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// How a replica asks the server for a page: one GET, its status and body.
/// ``URLSessionTransport`` in an app; tests give one that cuts answers
/// short, fails or serves a catalog in the same process.
public protocol ChangeTransport: Sendable {
    /// The answer to a GET of `url` with `headers`.
    func get(_ url: URL, headers: [String: String]) async throws -> (status: Int, body: Data)
}

/// ``ChangeTransport`` over `URLSession`: Foundation's on Apple platforms,
/// FoundationNetworking's on Linux.
public struct URLSessionTransport: ChangeTransport {
    public let session: URLSession

    public init(session: URLSession = .shared) {
        self.session = session
    }

    public func get(_ url: URL, headers: [String: String]) async throws -> (status: Int, body: Data) {
        var request = URLRequest(url: url)
        // A page must be the server's answer now: the device's HTTP cache
        // may hold an older page of the same URL (ETags revalidate it).
        request.cachePolicy = .reloadIgnoringLocalCacheData
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        // The callback API: `data(for:)` needs iOS 15 on Apple platforms
        // and is missing from older FoundationNetworking releases.
        return try await withCheckedThrowingContinuation { continuation in
            let task = session.dataTask(with: request) { data, response, error in
                if let error { return continuation.resume(throwing: error) }
                let status = (response as? HTTPURLResponse)?.statusCode ?? 0
                continuation.resume(returning: (status, data ?? Data()))
            }
            task.resume()
        }
    }
}
