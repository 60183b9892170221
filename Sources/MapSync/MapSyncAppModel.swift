import CarouselEngine
import MapCamera
import Observables

/// The map-sync view model as an app uses it: on the main actor, with its
/// outputs as async sequences (and, from iOS 17, as Observation state in
/// ``MapSyncState``).
///
/// UIKit delegates and SwiftUI closures run on the main actor, so they call
/// ``frame(_:)``, ``scrolled(to:)``, ``tapMarker(_:)``, ``load(_:layout:focusedIndex:)``
/// and ``reload(_:layout:keepingFocusOn:)`` directly; a call from another
/// thread (a `URLSession` completion handler) does not compile, where the
/// thread-safe core would have run it on that thread. Catalog reads go
/// through ``load(focusedIndex:reading:)`` and
/// ``reload(keepingFocusOn:reading:)``, which await the read (a catalog's
/// pins, read ahead: `CatalogStoreDirectory`) off the main actor and apply
/// its result back on it: the main actor never waits for SQLite.
///
/// ## Design: a facade over a thread-safe core
///
/// The logic is ``MapSyncViewModel``: `Sendable`, guarded by locks, callable
/// from any thread. The server's live sessions and the scroll simulation run
/// it off the main actor — one per WebSocket on the server's event loops, and
/// on the caller's thread for a simulation — so it cannot itself be
/// `@MainActor` without making every one of them hop to the main actor per
/// frame. This class holds one core and adds what an app needs: main-actor
/// inputs (checked by the compiler), async sequences and, through
/// ``MapSyncState``, Observation. The core stays public as ``core`` for its
/// `EventStream` operators.
///
/// ## Threads
///
/// Outputs are sent on the thread that sends the input — here always the
/// main actor — or that runs the debounce timer: the scheduler's. The
/// default, `RealTimeScheduler.main`, runs it on the main queue, which is
/// the main actor's; a test passes a `VirtualTimeScheduler` and advances it
/// from the main actor.
@MainActor
public final class MapSyncAppModel {
    /// The thread-safe view model underneath, for its event streams and
    /// operators.
    public nonisolated let core: MapSyncViewModel

    /// Counts loads and reloads started, so that a slow read finishing after
    /// a newer one started is dropped rather than applied over it.
    private var generation: UInt64 = 0

    /// An app's view model: debounces on the main queue; each store centred at
    /// `zoom`.
    ///
    /// - Parameters:
    ///   - scheduler: where the debounce runs. It must run its actions on the
    ///     main actor: `RealTimeScheduler.main` (the default) in an app, a
    ///     `VirtualTimeScheduler` advanced on the main actor in a test.
    ///   - debounceMs: the silence after the carousel's last frame before the
    ///     map follows; finite and ≥ 0.
    ///   - zoom: the camera zoom level for every store.
    public init(
        scheduler: some EventScheduler = RealTimeScheduler.main,
        debounceMs: Milliseconds = MapSyncViewModel.defaultDebounceMs,
        zoom: Double = MapSyncViewModel.defaultZoom
    ) {
        core = MapSyncViewModel(scheduler: scheduler, debounceMs: debounceMs, zoom: zoom)
    }

    /// An app's view model whose cameras are framed by `framing` for the map
    /// the carousel covers; see ``init(scheduler:debounceMs:zoom:)`` for
    /// `scheduler`.
    public init(
        scheduler: some EventScheduler = RealTimeScheduler.main,
        debounceMs: Milliseconds = MapSyncViewModel.defaultDebounceMs,
        framing: MapFraming
    ) {
        core = MapSyncViewModel(scheduler: scheduler, debounceMs: debounceMs, framing: framing)
    }

    // MARK: Outputs as async sequences

    /// Where the map camera goes, one value per move; throws when the store
    /// directory fails a lookup. Each access is a new subscription; values
    /// wait for a busy consumer, only the newest one (a camera behind the
    /// latest is never worth moving to).
    public nonisolated var cameraUpdates: AsyncThrowingStream<CameraPosition, any Error> {
        core.camera.values(bufferingPolicy: .bufferingNewest(1))
    }

    /// The marker to select and the one to deselect, every one in order (a
    /// dropped selection would leave its marker selected). Throws when the
    /// store directory fails a lookup.
    public nonisolated var markerSelections: AsyncThrowingStream<MarkerSelection, any Error> {
        core.marker.values()
    }

    /// The scrolls the carousel must make, one per marker tap,
    /// accessibility page action and autoplay turn, in order; each animated
    /// only when its `animated` says so (never under reduced motion).
    public nonisolated var scrollCommands: AsyncThrowingStream<ScrollCommand, any Error> {
        core.carouselScroll.values()
    }

    /// The cards at every frame; only the newest waits for a busy consumer.
    public nonisolated var cardStates: AsyncThrowingStream<CardState, any Error> {
        core.cards.values(bufferingPolicy: .bufferingNewest(1))
    }

    // MARK: Inputs

    /// Shows `stores`, laid out by `layout`, resting on `focusedIndex`; see
    /// ``MapSyncViewModel/load(_:layout:focusedIndex:)``.
    public func load(_ stores: some StoreDirectory, layout: CarouselLayout, focusedIndex: Int = 0) throws(MapSyncError) {
        generation &+= 1
        try core.load(stores, layout: layout, focusedIndex: focusedIndex)
    }

    /// Shows a new version of the list keeping store `id` in focus; see
    /// ``MapSyncViewModel/reload(_:layout:keepingFocusOn:)``.
    @discardableResult
    public func reload(_ stores: some StoreDirectory, layout: CarouselLayout, keepingFocusOn id: String) throws -> ScrollCommand? {
        generation &+= 1
        return try core.reload(stores, layout: layout, keepingFocusOn: id)
    }

    /// Shows a new version of the list keeping the store in focus now; see
    /// ``MapSyncViewModel/reload(_:layout:)``.
    @discardableResult
    public func reload(_ stores: some StoreDirectory, layout: CarouselLayout) throws -> ScrollCommand? {
        generation &+= 1
        return try core.reload(stores, layout: layout)
    }

    /// Awaits `read` (a catalog's pins, a page from the network) off the
    /// main actor, then shows its stores on the main actor as
    /// ``load(_:layout:focusedIndex:)``.
    ///
    /// - Returns: false when a newer load or reload started while `read`
    ///   ran: its result is dropped, so a slow read never replaces a newer
    ///   list.
    /// - Throws: what `read` throws, `CancellationError` when the calling
    ///   task is cancelled, or ``MapSyncError``.
    @discardableResult
    public func load<Stores: StoreDirectory>(
        focusedIndex: Int = 0,
        reading read: @escaping @Sendable () async throws -> (stores: Stores, layout: CarouselLayout)
    ) async throws -> Bool {
        let applied = try await applyLatest(read) { [core] stores, layout in
            try core.load(stores, layout: layout, focusedIndex: focusedIndex)
            return true
        }
        return applied ?? false
    }

    /// Awaits `read` off the main actor, then shows its stores on the main
    /// actor as ``reload(_:layout:keepingFocusOn:)``: what a refresh calls.
    ///
    /// - Returns: the command that puts the reloaded carousel in place (nil
    ///   for an empty list), or nil as well when a newer load or reload
    ///   started while `read` ran: this result was dropped, nothing applied.
    /// - Throws: what `read` throws, `CancellationError`, or what the
    ///   reload throws.
    public func reload<Stores: StoreDirectory>(
        keepingFocusOn id: String,
        reading read: @escaping @Sendable () async throws -> (stores: Stores, layout: CarouselLayout)
    ) async throws -> ScrollCommand? {
        try await applyLatest(read) { [core] stores, layout in try core.reload(stores, layout: layout, keepingFocusOn: id) }
    }

    /// Awaits `read` off the main actor, then shows its stores on the main
    /// actor keeping the store in focus at that moment: see
    /// ``MapSyncViewModel/reload(_:layout:)``. What a screen calls after a
    /// sync of its list (`CatalogReplica`): the user may swipe while the
    /// list is read, and the card they rest on then is the one kept.
    ///
    /// - Returns: as ``reload(keepingFocusOn:reading:)``.
    /// - Throws: as ``reload(keepingFocusOn:reading:)``.
    public func reload<Stores: StoreDirectory>(
        reading read: @escaping @Sendable () async throws -> (stores: Stores, layout: CarouselLayout)
    ) async throws -> ScrollCommand? {
        try await applyLatest(read) { [core] stores, layout in try core.reload(stores, layout: layout) }
    }

    /// Awaits `read` off the main actor, then applies its result with
    /// `apply` on it, unless a newer load or reload started meanwhile
    /// (nil: dropped).
    private func applyLatest<Stores: StoreDirectory, Applied>(
        _ read: @escaping @Sendable () async throws -> (stores: Stores, layout: CarouselLayout),
        _ apply: (Stores, CarouselLayout) throws -> Applied?
    ) async throws -> Applied? {
        generation &+= 1
        let started = generation
        let (stores, layout) = try await Self.offMainActor(read)
        try Task.checkCancellation()
        guard generation == started else { return nil }
        return try apply(stores, layout)
    }

    /// A carousel frame; see ``MapSyncViewModel/frame(_:)``.
    public func frame(_ frame: Frame) {
        core.frame(frame)
    }

    /// The scroll view moved to `offset` (`scrollViewDidScroll`, or a
    /// SwiftUI scroll geometry change); see ``MapSyncViewModel/scrolled(to:)``.
    @discardableResult
    public func scrolled(to offset: Double) throws(MapSyncError) -> Frame? {
        try core.scrolled(to: offset)
    }

    /// The user tapped store `index`'s marker; see ``MapSyncViewModel/tapMarker(_:)``.
    public func tapMarker(_ index: Int) throws(MapSyncError) {
        try core.tapMarker(index)
    }

    /// Ends the input and completes every output; see ``MapSyncViewModel/finish()``.
    public func finish() {
        core.finish()
    }

    /// The map changed size (a rotation, a resized window): cameras are
    /// framed by `framing` from now on, the selected store framed anew at
    /// once; see ``MapSyncViewModel/setFraming(_:)``.
    public func setFraming(_ framing: MapFraming) throws(MapFramingError) {
        try core.setFraming(framing)
    }

    /// Runs `read` on the global concurrent executor, never the caller's
    /// actor: a detached task inherits no actor, so whatever `read` does
    /// before its first `await` never holds the main actor either.
    private nonisolated static func offMainActor<Value: Sendable>(
        _ read: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        try await Task.detached(priority: .userInitiated, operation: read).value
    }
}
