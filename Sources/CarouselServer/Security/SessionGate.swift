import CatalogServing
import StoreCatalog

/// Whether a WebSocket upgrade may go ahead, decided from its head alone
/// before the upgrade handler sees it: the host and origin checks of any
/// request (an upgrade from a foreign origin is refused, `*` aside, as
/// sessions only read), the read rule for its token, the list it names,
/// and a slot under the session cap (``SessionSlots``).
///
/// Refusals are not answered here: ``UpgradeFilter`` turns a refused
/// upgrade into a plain GET, and the HTTP router's middlewares and the
/// session path's route answer it with their JSON errors, deriving the
/// same verdict from the same request (421, 403, 401, 404). Only the cap
/// cannot be derived again without a race, so it travels as the refusal's
/// ``Refusal/tooManySessions``.
struct SessionGate: Sendable {
    let policy: SitePolicy
    let access: AccessControl
    let reader: any ServingCatalog
    let slots: SessionSlots
    /// Whether a session needs a read token (`--require-token-for-reads`).
    let requireCredentials: Bool

    /// What a refused upgrade is marked with for the router.
    enum Refusal: String, Sendable {
        /// Answered by the router from the request itself.
        case refused
        /// The session cap: 503 `too_many_sessions`.
        case tooManySessions = "too_many_sessions"
    }

    /// What ``UpgradeFilter`` reads off an upgrade's head.
    struct Upgrade: Sendable {
        var authority: String?
        var origin: String?
        var credentials: CallerCredentials
        /// The list the path names, percent-decoded; nil when the path is
        /// not `/lists/{name}/session` or the name is not a valid name.
        var list: String?
    }

    /// The checks that need no I/O: nil when the upgrade may go on to
    /// ``admits(_:)``.
    func refusesAtOnce(_ upgrade: Upgrade) -> Refusal? {
        guard policy.answers(authority: upgrade.authority), upgrade.list != nil else { return .refused }
        if let origin = upgrade.origin, !policy.allows(origin: origin, authority: upgrade.authority, write: false) { return .refused }
        if requireCredentials {
            switch upgrade.credentials {
            case .token: break
            case .none, .malformed: return .refused
            }
        }
        return nil
    }

    /// The checks that read the catalog: the token (when reads need one)
    /// and the list. Run off the event loop.
    func admits(_ upgrade: Upgrade) async -> Bool {
        guard refusesAtOnce(upgrade) == nil, let list = upgrade.list else { return false }
        if requireCredentials {
            do {
                try await access.check(upgrade.credentials, scope: .read)
            } catch {
                return false
            }
        }
        // Any failure (no such list, the catalog unavailable) is refused:
        // the router's route reads the list again and answers 404 or 503.
        return (try? await reader.count(list: list)) != nil
    }
}
