import CarouselEngine
import CarouselJSON
import CatalogServing
import Locks
import MapCamera
import MapSync
import MapSyncCatalog
import MapSyncSimulation
import Observables
import StoreCatalog

/// One client's live map sync: its own `MapSyncViewModel`, fed by the
/// offsets the client's carousel reports, sending back `camera`, `marker`
/// and `scroll` lines shaped as `simulate --json` prints them, with `t` in
/// ms since the session began.
///
/// A session is one task (``run()``) that owns its view model and handles
/// everything that happens to it in order, one at a time: the client's
/// messages, the debounce's timer falling due (a `ClockScheduler` on the
/// session's clock — the wall clock in a server, a test clock in tests —
/// hands its actions to the same task), and the looks at its list. So an
/// input and a timer never interleave, and the order of the lines is the
/// order things happened. Nothing in it waits on a thread: its lookups are
/// reads of the list's pins, read ahead (``SharedLists``), and its
/// searches and list versions are awaited.
///
/// The session follows its list: when an import replaces it, the session
/// sends a `list` line with the new count, reloads the view model keeping
/// the selected store in focus (`MapSyncViewModel.reload(_:layout:keepingFocusOn:)`),
/// and sends the `scroll` that puts the carousel back on it; a list that
/// goes (deleted, renamed) ends the session. It looks before each message
/// but an offset (those come every frame) and at each ``followList()``.
///
/// A `query` message makes the carousel show that search's results rather
/// than the list: a `results` line with them, then — as when the list
/// changes — the focus kept on the selected store if it is a result (the
/// camera does not move), else on the first result with one camera. The
/// query runs again when the list changes; `{"query": null}` shows the
/// list again.
final class LiveSession: Sendable {
    /// What the session's task handles, in the order it came.
    private enum Event: Sendable {
        /// A client's message, parsed (or why it could not be).
        case message(Result<SessionInput, SessionInputError>)
        /// The debounce's timer fell due.
        case due(@Sendable () -> Void)
        /// A look at the list; the answer is whether it is gone.
        case look(CheckedContinuation<Bool, Never>)
        /// Everything before it has been handled.
        case mark(CheckedContinuation<Void, Never>)
    }

    private let scheduler: ClockScheduler
    private let engine: any ServingCatalog
    private let limits: ServerLimits
    private let send: @Sendable (String) -> Void
    /// Where the session's task runs: its connection's event loop in a
    /// server, Swift's cooperative pool when nil.
    private let executor: (any SessionExecutor)?
    private let queue: EventQueue

    /// What the session's task handles, and how many events are unhandled:
    /// queued, or in hand (an offset handled at once counts while it is).
    private final class EventQueue: Sendable {
        let events: AsyncStream<Event>
        private let inbox: AsyncStream<Event>.Continuation
        private let unhandled = StateLock(0)

        init() {
            // The client's messages wait here while one is handled; a
            // client that floods the session is bounded by the server's
            // rate limit and its socket's back-pressure, not by this buffer.
            (events, inbox) = AsyncStream.makeStream(of: Event.self)
        }

        /// Queues `event` behind those before it.
        @discardableResult
        func enqueue(_ event: Event) -> AsyncStream<Event>.Continuation.YieldResult {
            unhandled.withLock { $0 += 1 }
            let result = inbox.yield(event)
            if case .terminated = result { handled() }
            return result
        }

        func handled() {
            unhandled.withLock { $0 -= 1 }
        }

        /// Whether nothing is unhandled; if so, the caller's event is in
        /// hand until it calls ``handled()``.
        func takeIfIdle() -> Bool {
            unhandled.withLock { count in
                guard count == 0 else { return false }
                count = 1
                return true
            }
        }

        func finish() {
            inbox.finish()
        }
    }
    /// The subscriptions to the current view model's outputs.
    private let current = StateLock<(any Disposable)?>(nil)

    private struct State {
        /// The session's list.
        var stores: CatalogStoreDirectory
        /// The search the carousel shows the results of, if any, and
        /// those results.
        var query: SessionQuery?
        var results: InMemoryStoreDirectory?
        /// What the carousel shows: the results, or the list.
        var shown: any StoreDirectory { results ?? stores }
        /// nil: the session does not follow its list.
        var follower: ListFollower?
        /// The store whose marker is selected: the focus a reload keeps.
        var selectedStoreId: String?
        /// The list went: every message is refused until the session ends.
        var listGone = false
        var viewModel: MapSyncViewModel?
        var scroller: CarouselScroller?
        /// The last layout message, and the map framing from any message:
        /// a `{"map"}` message alone keeps the layout, a `{"layout"}`
        /// message alone keeps the map.
        var script: ScrollScript?
        var framing: MapFraming?
        var closed = false
        /// The scroll last commanded by the view model (a tap, an
        /// accessibility page, an autoplay turn), not yet taken as done.
        var commanded: ScrollCommand?
        /// Whether `status` lines are sent: the layout gave a
        /// `statusTemplate`, or the client paged with `accessibilityScroll`.
        var sendsStatus = false
    }
    /// Touched by the session's task, and by the view model's outputs,
    /// which it drives: a lock no one else takes.
    private let state: StateLock<State>

    /// A session on the list `stores` holds, read from `engine` (searches),
    /// followed by `follower` if given, its time on `clock`, its task run on
    /// `executor`; its lines go to `send`, in order.
    init(
        stores: CatalogStoreDirectory, engine: any ServingCatalog, follower: ListFollower? = nil, limits: ServerLimits = ServerLimits(),
        clock: any Clock<Duration> = ContinuousClock(), executor: (any SessionExecutor)? = nil,
        send: @escaping @Sendable (String) -> Void
    ) {
        state = StateLock(State(stores: stores, follower: follower))
        let queue = EventQueue()
        self.queue = queue
        scheduler = ClockScheduler(clock: clock) { action in queue.enqueue(.due(action)) }
        self.engine = engine
        self.limits = limits
        self.executor = executor
        self.send = send
    }

    /// How often a session looks at its list between messages, and how
    /// old the shared data version may be then: a change shows within
    /// about a second, for one read of the version a second server-wide.
    static let listCheckInterval = Duration.seconds(1)

    /// The session's task: handles what comes, in order, until ``close()``
    /// and then what came before it.
    ///
    /// Cancelling the caller closes the session (a connection that failed
    /// ends its task group so); the events queued before are still handled
    /// — the loop runs in a task of its own, which the cancellation does
    /// not reach — so that every look and mark gets its answer (an
    /// `AsyncStream` iterated by a cancelled task drops what it buffered).
    ///
    /// That task runs on the session's executor, in a server the event
    /// loop its connection is read and written on: a message, its handling
    /// and its lines then never cross threads. On the cooperative pool
    /// every frame took two hand-overs, the loop waking a pool thread with
    /// the message and the pool thread waking the loop with the lines.
    func run() async {
        let events = queue.events
        await withTaskCancellationHandler {
            await Task(executorPreference: executor) { await self.handleEvents(events) }.value
        } onCancel: {
            close()
        }
    }

    private func handleEvents(_ events: AsyncStream<Event>) async {
        for await event in events {
            await handle(event)
            queue.handled()
        }
        // Closed: the view model is let go, and any pending debounce with it.
        state.withLock { state in
            state.viewModel = nil
            state.scroller = nil
        }
        current.withLock { $0 }?.dispose()
    }

    private func handle(_ event: Event) async {
        switch event {
        case .message(let input):
            guard !isClosed else { return }
            do {
                try await handle(try input.get())
                settleCommandedScroll()
            } catch {
                sendBadMessage(error)
            }
        case .due(let action):
            if !isClosed {
                action()
                settleCommandedScroll()
            }
        case .look(let answer):
            answer.resume(returning: await lookAtList(maxAge: Self.listCheckInterval))
        case .mark(let done):
            done.resume()
        }
    }

    /// Handles one client message, after those before it.
    ///
    /// An offset — what a moving carousel sends every frame — received on
    /// the session's executor while the session has nothing in hand or
    /// queued is handled at once, by the caller: it needs no I/O, and the
    /// session's task would have handled it next, on the same thread. In a
    /// server that caller is the connection's loop reading the frame
    /// (``SessionFrameReader``): a frame is read, handled and answered with
    /// no task switch. Every other message, and an offset while anything
    /// is unhandled, queues behind what came before.
    func receive(_ text: String) {
        receive(Result { () throws(SessionInputError) in try SessionInput(text: text) })
    }

    /// Handles one client message parsed by the caller (the server's rate
    /// limit reads it first), as ``receive(_:)-(String)`` does: each message
    /// is parsed once.
    func receive(_ input: Result<SessionInput, SessionInputError>) {
        if executor?.isCurrent == true, case .success(.offset(let offset)) = input, queue.takeIfIdle() {
            defer { queue.handled() }
            guard !isClosed else { return }
            do {
                try checkListIsThere()
                try scroll(to: offset)
                settleCommandedScroll()
            } catch {
                sendBadMessage(error)
            }
            return
        }
        queue.enqueue(.message(input))
    }

    /// Looks whether the list changed, after what came before (reloading
    /// it if it did); true when the list is gone and the session must end.
    func followList() async -> Bool {
        await withCheckedContinuation { answer in
            if case .terminated = queue.enqueue(.look(answer)) { answer.resume(returning: false) }
        }
    }

    /// Returns once everything received before it has been handled (at
    /// once when the session is closed).
    func handled() async {
        await withCheckedContinuation { done in
            if case .terminated = queue.enqueue(.mark(done)) { done.resume() }
        }
    }

    /// Whether the debounce's timer has fallen due on the session's clock
    /// and not yet reached the session (for tests on a test clock).
    var hasPendingDue: Bool { scheduler.hasDueActions }

    /// Ends the session: nothing is handled or sent afterwards, and
    /// ``run()`` returns once the event in hand is done, letting the view
    /// model go with its pending debounce. Never waits.
    func close() {
        state.withLock { $0.closed = true }
        queue.finish()
    }

    private var isClosed: Bool { state.withLock { $0.closed } }

    private func handle(_ input: SessionInput) async throws {
        // Every message but a frame's offset sees the list as it is now: a
        // tap past the end of a list that shrank is refused, not scrolled.
        if case .offset = input {} else { _ = await lookAtList(maxAge: .zero) }
        try checkListIsThere()
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
            try scroll(to: offset)
        case .tapMarker(let index):
            if state.withLock({ $0.viewModel == nil }) { try load(ScrollScript(layout: LayoutSpec(), events: [])) }
            guard let viewModel = state.withLock({ $0.viewModel }) else { return }
            do {
                try viewModel.tapMarker(index)
            } catch {
                sendError("bad_message", "tapMarker: \(error)")
            }
        case .autoplay(let play):
            if play { try loadedViewModel().play() } else { try loadedViewModel().stop() }
        case let .pause(reason, on):
            do {
                try loadedViewModel().setPause(reason, on)
            } catch let error as AutoplayError {
                throw SessionInputError(error.description)
            }
        case .accessibilityScroll(let direction):
            let viewModel = try loadedViewModel()
            state.withLock { $0.sendsStatus = true }
            viewModel.accessibilityScroll(direction)
        case .query(let query):
            let stores = state.withLock { $0.stores }
            var results: SearchPage?
            if let query { results = try await search(query, of: stores) }
            state.withLock { $0.query = query }
            show(results, list: stores)
        }
    }

    /// Once the list is gone, every message is refused until the session ends.
    private func checkListIsThere() throws {
        guard !state.withLock({ $0.listGone }) else { throw SessionInputError("the list no longer exists") }
    }

    /// The client's carousel is at `offset`: the scroller goes there and the
    /// view model sees the frame.
    private func scroll(to offset: Double) throws {
        if state.withLock({ $0.viewModel == nil }) { try load(ScrollScript(layout: LayoutSpec(), events: [])) }
        let (viewModel, frame) = try state.withLock { state throws -> (MapSyncViewModel?, Frame?) in
            guard var scroller = state.scroller else { return (nil, nil) }
            try scroller.setOffset(offset, at: scheduler.now)
            let frame = try scroller.frame(at: scheduler.now)
            state.scroller = scroller
            return (state.viewModel, frame)
        }
        // The client reports offsets while its carousel moves: a frame
        // in motion, as `MapSyncViewModel.scrolled(to:)` says, so no
        // status is spoken on the way and no pause ends.
        if let viewModel, let frame {
            viewModel.frame(
                Frame(
                    time: frame.time, offset: frame.offset, index: frame.index, dataIndex: frame.dataIndex,
                    direction: frame.direction, jump: frame.jump, isSettled: false))
        }
    }

    /// The view model, loaded with the default layout if no layout came yet.
    private func loadedViewModel() throws -> MapSyncViewModel {
        if state.withLock({ $0.viewModel == nil }) { try load(ScrollScript(layout: LayoutSpec(), events: [])) }
        guard let viewModel = state.withLock({ $0.viewModel }) else {
            throw SessionInputError("the carousel has no layout that fits its stores: send a layout")
        }
        return viewModel
    }

    /// The client was sent a `scroll` line and puts its carousel there: the
    /// session's scroller goes there too, and the view model sees the
    /// carousel settle on it (the status of the page, autoplay's `markerTap`
    /// pause ended). Outside the view model's calls: its outputs are not
    /// re-entered.
    private func settleCommandedScroll() {
        let settled = state.withLock { state -> (MapSyncViewModel, Frame)? in
            guard let command = state.commanded, let viewModel = state.viewModel, var scroller = state.scroller else {
                state.commanded = nil
                return nil
            }
            state.commanded = nil
            let jump = ScrollCommand(
                index: command.index, dataIndex: command.dataIndex, targetOffset: command.targetOffset, animated: false)
            guard (try? scroller.perform(jump, at: scheduler.now)) != nil, let frame = try? scroller.frame(at: scheduler.now) else {
                return nil
            }
            state.scroller = scroller
            return (viewModel, frame)
        }
        if let (viewModel, frame) = settled { viewModel.frame(frame) }
    }

    /// The first page of `query`'s results in `stores`' list.
    private func search(_ query: SessionQuery, of stores: CatalogStoreDirectory) async throws(SessionInputError) -> SearchPage {
        let search = try query.search(list: stores.list, limits: limits)
        do {
            return try await engine.search(search)
        } catch {
            throw SessionInputError("query: \(error)")
        }
    }

    /// Shows `results` (nil: the whole list) in the carousel: a `results`
    /// line, then the focus kept on the selected store when it is shown,
    /// else on the first card.
    private func show(_ results: SearchPage?, list: CatalogStoreDirectory) {
        let directory = results.map { page in
            InMemoryStoreDirectory(page.hits.map { StorePin(id: $0.store.id, latitude: $0.store.latitude, longitude: $0.store.longitude) })
        }
        state.withLock { $0.results = directory }
        if let results { send(Self.resultsLine(time: scheduler.now, results)) }
        if let directory {
            present(directory, keepingFocusElseNearest: false)
        } else {
            present(list, keepingFocusElseNearest: false)
        }
    }

    /// A new layout: a new view model resting on `initialIndex`, whose
    /// load emits the first camera and marker at once.
    private func load(_ script: ScrollScript) throws {
        let stores = state.withLock { $0.shown }
        let layout: CarouselLayout
        do {
            layout = try script.layout.layout(dataCount: stores.count)
        } catch {
            throw SessionInputError("layout: \(error)")
        }
        guard stores.count == 0 ? script.initialIndex == 0 : (0..<stores.count).contains(script.initialIndex) else {
            throw SessionInputError("initialIndex \(script.initialIndex) is not a card of the carousel (0..<\(stores.count))")
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
        let autoplay: AutoplaySettings?
        do throws(ScrollScriptError) {
            autoplay = try script.resolvedAutoplay()
        } catch {
            throw SessionInputError(error.reason)
        }
        viewModel.setReduceMotion(script.reduceMotion ?? false)
        if let template = script.statusTemplate {
            viewModel.setStatusTemplate(template)
            state.withLock { $0.sendsStatus = true }
        }
        let scroller = try CarouselScroller(layout: layout, initialIndex: script.initialIndex, at: scheduler.now)
        let scheduler = scheduler, send = send
        @Sendable func line(_ kind: TimelineEntry.Kind) { send(TimelineJSON.line(TimelineEntry(time: scheduler.now, kind))) }
        let fresh = CompositeDisposable(
            viewModel.camera.subscribe(onNext: { line(.camera($0)) }, onError: { send(Self.errorLine("lookup", "\($0)")) }),
            viewModel.marker.subscribe(onNext: { [weak self] marker in
                self?.state.withLock { $0.selectedStoreId = marker.storeId }
                line(.marker(marker))
            }),
            viewModel.carouselScroll.subscribe(onNext: { [weak self] command in
                self?.state.withLock { $0.commanded = command }
                line(.scroll(command))
            }),
            viewModel.accessibilityStatus.subscribe(onNext: { [weak self] status in
                if self?.state.withLock({ $0.sendsStatus }) == true { line(.status(status)) }
            }),
            viewModel.autoplay.subscribe(onNext: { line(.autoplay($0)) }))
        state.withLock { state in
            state.viewModel = viewModel
            state.scroller = scroller
        }
        replaceSubscriptions(with: fresh)
        try viewModel.load(stores, layout: layout, focusedIndex: script.initialIndex)
        viewModel.setAutoplay(autoplay)
    }

    /// Looks at the list (see ``ListFollower``) and reloads the session on
    /// a change; true when the list is gone. On the session's task.
    private func lookAtList(maxAge: Duration) async -> Bool {
        let follower = state.withLock { state -> ListFollower? in state.closed || state.listGone ? nil : state.follower }
        guard var follower else { return state.withLock { $0.listGone } }
        let change = await follower.look(maxAge: maxAge)
        state.withLock { $0.follower = follower }
        switch change {
        case .none:
            return false
        case .gone:
            state.withLock { $0.listGone = true }
            return true
        case .changed(let stores):
            await reload(stores)
            return false
        }
    }

    /// The list changed to `stores`: tells the client its new count, runs
    /// the session's query again if it has one, then shows the list or the
    /// results keeping the selected store in focus (or the nearest card,
    /// when it is gone from the list).
    private func reload(_ stores: CatalogStoreDirectory) async {
        let query = state.withLock { state in
            state.stores = stores
            return state.query
        }
        send(Self.listLine(time: scheduler.now, count: stores.count))
        guard let query else { return present(stores, keepingFocusElseNearest: true) }
        do {
            show(try await search(query, of: stores), list: stores)
        } catch {
            // A query that ran before fails now only if the catalog does:
            // the list is shown instead.
            state.withLock { $0.query = nil }
            sendError("bad_query", "\(error); showing the list")
            show(nil, list: stores)
        }
    }

    /// Puts `stores` in the carousel, keeping the selected store in focus
    /// when it is among them (it emits camera and marker as
    /// `reload(_:layout:keepingFocusOn:)` says: none when the store stays
    /// in focus); when it is not, the focus goes to the nearest card
    /// (`keepingFocusElseNearest`, a list that changed) or to the first.
    /// Then sends the carousel where to rest, without animation.
    private func present(_ stores: some StoreDirectory, keepingFocusElseNearest: Bool) {
        let (viewModel, script, focusedId) = state.withLock { state in
            (state.viewModel, state.script, state.selectedStoreId)
        }
        // Nothing loaded yet: the first message loads what is shown.
        guard let viewModel else { return }
        do {
            let layout = try (script ?? ScrollScript(layout: LayoutSpec(), events: [])).layout.layout(dataCount: stores.count)
            let command: ScrollCommand?
            if let focusedId, try keepingFocusElseNearest || stores.index(ofStore: focusedId) != nil {
                command = try viewModel.reload(stores, layout: layout, keepingFocusOn: focusedId)
            } else {
                try viewModel.load(stores, layout: layout, focusedIndex: 0)
                let item = layout.firstDataItem
                command = stores.count == 0 ? nil : ScrollCommand(index: item, dataIndex: 0, targetOffset: layout.rest(item), animated: false)
            }
            let scroller = try command.map { try CarouselScroller(layout: layout, initialIndex: $0.dataIndex, at: scheduler.now) }
            state.withLock { $0.scroller = scroller }
            if let command { send(TimelineJSON.line(TimelineEntry(time: scheduler.now, .scroll(command)))) }
        } catch {
            // The layout does not fit: nothing is loaded until the client
            // sends one that does.
            state.withLock { state in
                state.viewModel = nil
                state.scroller = nil
            }
            replaceSubscriptions(with: CompositeDisposable())
            sendError("bad_layout", "the carousel now holds \(stores.count) stores and the layout does not fit them: \(error)")
        }
    }

    /// `{"t":…,"type":"results","count":n,"stores":[…],"next":cursor}`: the
    /// carousel shows these stores now (`next`: the search had more).
    static func resultsLine(time: Double, _ page: SearchPage) -> String {
        let stores = StoreJSON.array(page.hits.map { ($0.store, $0.distanceMeters) })
        let next = page.next.map { StoreJSON.quoted($0.description) } ?? "null"
        return #"{"t":\#(JSONNumber.exact(time)),"type":"results","count":\#(page.hits.count),"stores":\#(stores),"next":\#(next)}"#
    }

    /// `{"t":…,"type":"list","count":n}`: the list now holds `count` stores.
    static func listLine(time: Double, count: Int) -> String {
        #"{"t":\#(JSONNumber.exact(time)),"type":"list","count":\#(count)}"#
    }

    private func replaceSubscriptions(with fresh: any Disposable) {
        let old = current.withLock { current in
            defer { current = fresh }
            return current
        }
        old?.dispose()
    }

    /// A message that could not be handled: the client is told why.
    private func sendBadMessage(_ error: any Error) {
        sendError("bad_message", (error as? SessionInputError)?.description ?? "\(error)")
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

/// An executor that tells whether the calling code runs on it: a live
/// session handles a frame's offset at once when it is read there.
protocol SessionExecutor: TaskExecutor {
    var isCurrent: Bool { get }
}
