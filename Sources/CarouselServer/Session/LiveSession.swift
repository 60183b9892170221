import CarouselEngine
import CarouselJSON
import Dispatch
import Locks
import MapCamera
import MapSync
import MapSyncCatalog
import MapSyncSimulation
import Observables
import StoreCatalog

/// One client's live map sync: its own `MapSyncViewModel` on the wall clock,
/// fed by the offsets the client's carousel reports, sending back `camera`,
/// `marker` and `scroll` lines shaped as `simulate --json` prints them, with
/// `t` in ms since the session began.
///
/// Every input runs on the session's serial queue, the queue the debounce's
/// timer fires on too, so an input and a timer never interleave and the
/// order of the lines is the order things happened.
final class LiveSession: Sendable {
    private let stores: CatalogStoreDirectory
    private let scheduler: RealTimeScheduler
    private let send: @Sendable (String) -> Void
    /// The subscriptions to the current view model's outputs.
    private let current = StateLock<(any Disposable)?>(nil)

    private struct State {
        var viewModel: MapSyncViewModel?
        var scroller: CarouselScroller?
        /// The last layout message, and the map framing from any message:
        /// a `{"map"}` message alone keeps the layout, a `{"layout"}`
        /// message alone keeps the map.
        var script: ScrollScript?
        var framing: MapFraming?
        var closed = false
    }
    private let state = StateLock(State())

    /// A session on `list`; its lines go to `send`, in order.
    init(stores: CatalogStoreDirectory, label: String, send: @escaping @Sendable (String) -> Void) {
        self.stores = stores
        scheduler = RealTimeScheduler(label: label)
        self.send = send
    }

    /// Handles one client message, on the session's queue.
    func receive(_ text: String) {
        scheduler.queue.async { [self] in
            do {
                try handle(try SessionInput(text: text))
            } catch let error as SessionInputError {
                sendError("bad_message", error.description)
            } catch {
                sendError("bad_message", "\(error)")
            }
        }
    }

    /// Ends the session: no line is sent afterwards, any pending debounce
    /// is dropped, and the view model is let go.
    func close() {
        scheduler.queue.sync {
            state.withLock { state in
                state.closed = true
                state.viewModel = nil
                state.scroller = nil
            }
            current.withLock { $0 }?.dispose()
        }
    }

    private func handle(_ input: SessionInput) throws {
        guard !state.withLock({ $0.closed }) else { return }
        switch input {
        case .layout(let script):
            if let map = script.map { state.withLock { $0.framing = map } }
            try load(script)
        case .map(let framing):
            // The layout stays (the default one if none came yet); the
            // view model is made anew for the map and frames the focus.
            let script = state.withLock { state in
                state.framing = framing
                return state.script
            }
            try load(script ?? ScrollScript(layout: LayoutSpec(), events: []))
        case .offset(let offset):
            if state.withLock({ $0.viewModel == nil }) { try load(ScrollScript(layout: LayoutSpec(), events: [])) }
            let (viewModel, frame) = try state.withLock { state throws -> (MapSyncViewModel?, Frame?) in
                guard var scroller = state.scroller else { return (nil, nil) }
                try scroller.setOffset(offset, at: scheduler.now)
                let frame = try scroller.frame(at: scheduler.now)
                state.scroller = scroller
                return (state.viewModel, frame)
            }
            if let viewModel, let frame { viewModel.frame(frame) }
        case .tapMarker(let index):
            if state.withLock({ $0.viewModel == nil }) { try load(ScrollScript(layout: LayoutSpec(), events: [])) }
            guard let viewModel = state.withLock({ $0.viewModel }) else { return }
            do {
                try viewModel.tapMarker(index)
            } catch {
                sendError("bad_message", "tapMarker: \(error)")
            }
        }
    }

    /// A new layout: a new view model resting on `initialIndex`, whose
    /// load emits the first camera and marker at once.
    private func load(_ script: ScrollScript) throws {
        let layout: CarouselLayout
        do {
            layout = try script.layout.layout(dataCount: stores.count)
        } catch {
            throw SessionInputError("layout: \(error)")
        }
        guard stores.count == 0 ? script.initialIndex == 0 : (0..<stores.count).contains(script.initialIndex) else {
            throw SessionInputError("initialIndex \(script.initialIndex) is not a store of the list (0..<\(stores.count))")
        }
        guard script.resolvedDebounceMs.isFinite, script.resolvedDebounceMs >= 0, script.resolvedDebounceMs <= 60_000 else {
            throw SessionInputError("debounceMs must be in 0...60000")
        }
        let framing = state.withLock { state in
            state.script = script
            return state.framing
        }
        let viewModel =
            if let framing {
                MapSyncViewModel(scheduler: self.scheduler, debounceMs: script.resolvedDebounceMs, framing: framing)
            } else {
                MapSyncViewModel(scheduler: self.scheduler, debounceMs: script.resolvedDebounceMs, zoom: script.resolvedZoom)
            }
        let scroller = try CarouselScroller(layout: layout, initialIndex: script.initialIndex, at: scheduler.now)
        let scheduler = scheduler, send = send
        @Sendable func line(_ kind: TimelineEntry.Kind) { send(TimelineJSON.line(TimelineEntry(time: scheduler.now, kind))) }
        let fresh = CompositeDisposable(
            viewModel.camera.subscribe(onNext: { line(.camera($0)) }, onError: { send(Self.errorLine("lookup", "\($0)")) }),
            viewModel.marker.subscribe(onNext: { line(.marker($0)) }),
            viewModel.carouselScroll.subscribe(onNext: { line(.scroll($0)) }))
        state.withLock { state in
            state.viewModel = viewModel
            state.scroller = scroller
        }
        replaceSubscriptions(with: fresh)
        try viewModel.load(stores, layout: layout, focusedIndex: script.initialIndex)
    }

    private func replaceSubscriptions(with fresh: any Disposable) {
        let old = current.withLock { current in
            defer { current = fresh }
            return current
        }
        old?.dispose()
    }

    private func sendError(_ code: String, _ message: String) {
        guard !state.withLock({ $0.closed }) else { return }
        send(Self.errorLine(code, message))
    }

    /// `{"type":"error","error":{"code","message"}}`: the session goes on.
    static func errorLine(_ code: String, _ message: String) -> String {
        "{\"type\":\"error\",\"error\":{\"code\":\(StoreJSON.quoted(code)),\"message\":\(StoreJSON.quoted(message))}}"
    }
}
