import Hummingbird

/// Whether a WebSocket upgrade may go ahead: the host and origin checks of
/// any request (an upgrade from a foreign origin is refused, `*` aside,
/// as sessions only read), the read rule for its token, and the cap on
/// live sessions.
///
/// A refused upgrade is not upgraded and falls through to the HTTP
/// router, whose middlewares and session route answer it with the
/// matching 4xx or 503.
struct SessionGate: Sendable {
    let policy: SitePolicy
    let access: AccessControl
    let sessions: SessionCounter
    let maxSessions: Int

    func admits(_ request: Request) async -> Bool {
        let authority = request.head.authority
        guard policy.answers(authority: authority) else { return false }
        if let origin = request.headers[.origin], !policy.allows(origin: origin, authority: authority, write: false) { return false }
        if let scope = access.scopeNeeded(for: request) {
            do {
                try await access.check(request, scope: scope, allowQueryItem: true)
            } catch {
                return false
            }
        }
        // Checked, not reserved: two upgrades at once may both pass at
        // the cap's edge, and the cap is then one or two over.
        return sessions.openCount < maxSessions
    }
}
