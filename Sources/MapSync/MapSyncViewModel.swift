import CarouselEngine
import Geo
import Locks
import MapCamera
import Observables

/// The map-sync view model: turns the carousel's frames into map
/// camera moves and marker selections, and marker taps into carousel scrolls.
///
/// ```
/// frame ─▶ focused data index ─▶ debounce(debounceMs) ─┐
///                       load: initial index ───────────┼─▶ distinctUntilChanged ─▶ lookup ─▶ camera, marker
///                        marker tap k ─────────────────┘
/// frame ─▶ cards (focus, direction, visible items), every frame
/// marker tap k ─▶ carouselScroll to rest(k)
/// ```
///
/// - Every frame reports its focused index, changed or not, as
///   `visibleItemsInvalidationHandler` fires on every layout pass (the visibleItemsInvalidationHandler article);
///   so the camera moves `debounceMs` after the carousel's last frame, never
///   while it still moves.
/// - Debounce first, then distinct: A→B→A within the window emits nothing.
/// - ``load(_:layout:focusedIndex:)`` emits the initial store at once, and
///   that value seeds distinct.
/// - A marker tap goes through the same distinct, so it becomes the last
///   emitted value: the commanded scroll settles on the tapped card and its
///   debounced focus is suppressed — no echo back to the map. (Tapping the
///   marker already selected emits nothing; the carousel still scrolls back
///   to its card.)
/// - Stores are looked up only for emitted values, never per frame.
/// - With a `MapFraming` (``init(scheduler:debounceMs:framing:)``) every
///   camera is framed for the map the carousel covers and carries its
///   transition from the previous one; in `keep` mode a store still in view
///   emits its marker without a camera. Taps are framed the same way.
///
/// Outputs are delivered synchronously on the thread that sends the input or
/// runs the debounce timer (the scheduler's: the main queue for
/// `RealTimeScheduler.main`). Safe to call from several threads.
public final class MapSyncViewModel: Sendable {
    /// The silence after the carousel's last frame before the map follows (250 ms, as the visibleItemsInvalidationHandler article's relay debounces).
    public static let defaultDebounceMs: Milliseconds = 250
    /// The camera zoom level when none is given.
    public static let defaultZoom = 16.0

    /// The silence, in ms, after the last frame before the map follows.
    public let debounceMs: Milliseconds
    /// The zoom level for one store: the framing's, or the camera zoom given.
    public var zoom: Double { framingNow.value?.zoom ?? plainZoom }
    /// How cameras are framed on the map; nil: centred on the store at
    /// ``zoom``, with no padding and no transition (the visibleItemsInvalidationHandler article's).
    /// ``setFraming(_:)`` changes it when the map's size does.
    public var framing: MapFraming? { framingNow.value }
    /// The zoom of a view model made without a framing.
    let plainZoom: Double
    /// The framing now, read by the pipeline at each camera.
    let framingNow: FramingNow
    let scheduler: AnyEventScheduler

    /// Per frame, the focused data index.
    let focus = PublishSubject<Int>()
    let outputs = Outputs()

    struct State {
        /// The loaded list; nil before the first load.
        var session: Session?
        /// The latest frame's offset: where a tap's scroll starts from, to
        /// pick the nearest twin in loop mode.
        var offset: Double = 0
        /// The store of the last accessibility status (or the store the list
        /// was loaded on): a settled page sends a status only when it differs.
        var statusIndex: Int?
        /// The template statuses are built from.
        var statusTemplate = StatusTemplate.standard
        /// Autoplay's setting and pause reasons.
        var autoplay = AutoplayGate()
        /// The pending turn while autoplay plays.
        var autoplayTimer: (any Disposable)?
        /// The item a commanded scroll (a tap, an accessibility page, an
        /// autoplay turn) is heading for, until a frame reaches it or the
        /// carousel settles or is dragged: a second VoiceOver swipe during
        /// the first one's animation pages on from its target, not from the
        /// card the animation has not yet left.
        var commandedItem: Int?

        /// The item the next page turn starts from.
        func pagingItem(in layout: CarouselLayout) -> Int? {
            commandedItem ?? layout.focusedItem(at: offset)
        }
    }

    let state = StateLock(State())
    /// The reduce-motion setting, read by the pipeline at each camera.
    let motion = MotionPreference()
    /// The running pipeline of the loaded list; replacing it drops the old one.
    let pipeline = SerialDisposable()

    /// A view model whose debounce runs on `scheduler` (a
    /// `VirtualTimeScheduler` for tests and the simulator,
    /// `RealTimeScheduler.main` for apps, so that outputs arrive on the main
    /// thread).
    ///
    /// - Precondition: `debounceMs` is finite and ≥ 0 (0 passes values through).
    public init(scheduler: some EventScheduler, debounceMs: Milliseconds = defaultDebounceMs, zoom: Double = defaultZoom) {
        precondition(debounceMs.isFinite && debounceMs >= 0, "debounceMs must be a finite number of ms ≥ 0, not \(debounceMs)")
        self.scheduler = AnyEventScheduler(scheduler)
        self.debounceMs = debounceMs
        plainZoom = zoom
        framingNow = FramingNow(nil)
    }

    /// A view model whose cameras are framed by `framing` for the map the
    /// carousel covers, each with its transition from the previous one.
    ///
    /// - Precondition: `debounceMs` is finite and ≥ 0; `framing` passes
    ///   `MapFraming/validate()`.
    public init(scheduler: some EventScheduler, debounceMs: Milliseconds = defaultDebounceMs, framing: MapFraming) {
        precondition(debounceMs.isFinite && debounceMs >= 0, "debounceMs must be a finite number of ms ≥ 0, not \(debounceMs)")
        do {
            try framing.validate()
        } catch {
            preconditionFailure("invalid map framing: \(error)")
        }
        self.scheduler = AnyEventScheduler(scheduler)
        self.debounceMs = debounceMs
        plainZoom = framing.zoom
        framingNow = FramingNow(framing)
    }

    deinit {
        pipeline.dispose()
        state.withLock { $0.autoplayTimer }?.dispose()
    }

    // MARK: Outputs

    /// Where the map camera goes: debounced and distinct, plus the initial
    /// store at load and tapped stores at once; in `keep` framing only when
    /// the store leaves the safe rect.
    public var camera: EventStream<CameraPosition> { outputs.camera.asObservable() }

    /// The marker to select (and the one to deselect), alongside each camera
    /// move — and alone when `keep` framing leaves the camera where it is.
    public var marker: EventStream<MarkerSelection> { outputs.marker.asObservable() }

    /// The cards at every frame, not debounced: focus, direction, visible
    /// items with fraction and scale.
    public var cards: EventStream<CardState> { outputs.cards.asObservable() }

    /// The scrolls the carousel must make — one per marker tap, accessibility
    /// page action and autoplay turn — as
    /// `setContentOffset(targetOffset, animated: command.animated)`: animated
    /// unless reduced motion is on (``setReduceMotion(_:)``).
    public var carouselScroll: EventStream<ScrollCommand> { outputs.scroll.asObservable() }

    /// What a screen reader speaks: one status per settled page (none during
    /// a drag), one per accessibility page action at once, and the same
    /// status again when such an action finds the carousel at an end.
    public var accessibilityStatus: EventStream<AccessibilityStatus> { outputs.status.asObservable() }

    /// Autoplay's state whenever it changes, while autoplay is on
    /// (``setAutoplay(_:)``).
    public var autoplay: EventStream<AutoplayState> { outputs.autoplay.asObservable() }

    // MARK: Inputs

    /// Shows a new store list, laid out by `layout`, resting on store
    /// `focusedIndex`: emits its camera and marker now, without waiting for
    /// the debounce, and seeds distinct with it. A value pending in the
    /// previous list's debounce is dropped. An empty list emits nothing.
    public func load(_ stores: some StoreDirectory, layout: CarouselLayout, focusedIndex: Int = 0) throws(MapSyncError) {
        let count = stores.count
        guard layout.dataCount == count else {
            throw .layoutCountMismatch(layoutCount: layout.dataCount, storeCount: count)
        }
        guard count == 0 ? focusedIndex == 0 : (0..<count).contains(focusedIndex) else {
            throw .indexOutOfRange(index: focusedIndex, count: count)
        }
        start(Session(stores: stores, layout: layout), focusedIndex: focusedIndex)
    }

    /// Makes `session` the loaded list, resting on `focusedIndex`, and offers
    /// that index for selection: emitted at once unless `session` absorbs it
    /// (a reload that keeps the store on the map).
    func start(_ session: Session, focusedIndex: Int) {
        let count = session.count, layout = session.layout
        state.withLock { state in
            state.session = session
            state.offset = count == 0 ? 0 : layout.rest(layout.firstDataItem + focusedIndex)
            // The page a list opens on is not announced: it was not turned.
            state.statusIndex = count == 0 ? nil : focusedIndex
            state.commandedItem = nil
        }
        // Setting the serial disposable disposes the old pipeline first: its
        // pending debounce timer is cancelled, its distinct state dropped.
        pipeline.disposable = makePipeline(for: session)
        if count > 0 {
            session.selections.onNext(focusedIndex)
        }
    }

    /// A carousel frame: publishes the cards, and feeds the focused index to
    /// the debounce. Call it on every layout pass, moved or not.
    public func frame(_ frame: Frame) {
        guard
            let session = state.withLock({ state -> Session? in
                state.offset = frame.offset
                // Reached, at rest, or moved to a twin (a loop jump: the
                // item heading for is counted in the old twin's numbers).
                if frame.isSettled || frame.jump != nil || frame.index == state.commandedItem { state.commandedItem = nil }
                return state.session
            })
        else { return }
        outputs.cards.onNext(
            CardState(
                focusedIndex: frame.dataIndex,
                direction: frame.direction,
                visibleItems: session.layout.visibleItems(at: frame.offset)
            ))
        if let index = frame.dataIndex, index < session.count {
            focus.onNext(index)
        }
        if frame.isSettled { didSettle() }
    }

    /// The user tapped store `index`'s marker: selects it and moves the
    /// camera now, and commands a carousel scroll to its card (animated
    /// unless reduced motion is on; in
    /// loop mode, the twin nearest the current offset).
    public func tapMarker(_ index: Int) throws(MapSyncError) {
        let (session, offset) = state.withLock { ($0.session, $0.offset) }
        let count = session?.count ?? 0
        guard let session, (0..<count).contains(index) else {
            throw .indexOutOfRange(index: index, count: count)
        }
        session.selections.onNext(index)
        // Autoplay waits for the tap's scroll to settle (didSettle()).
        updateAutoplay { $0.reasons.insert(.markerTap) }
        let item = session.layout.nearestItem(showing: index, to: offset)
        state.withLock { $0.commandedItem = item }
        outputs.scroll.onNext(
            ScrollCommand(
                index: item, dataIndex: index, targetOffset: session.layout.rest(item), animated: !motion.reduceMotion))
    }

    /// Ends the input, as a script's `end`: a focused index still waiting in
    /// the debounce is emitted now, then every output completes. The view
    /// model takes no more input afterwards.
    public func finish() {
        state.withLock { state in
            state.autoplayTimer?.dispose()
            state.autoplayTimer = nil
        }
        focus.onCompleted()
        // With nothing loaded there is no pipeline to carry the completion.
        if state.withLock({ $0.session == nil }) { outputs.complete() }
    }

    // MARK: Pipeline

    /// frame focus → debounce → selections; selections → distinct → lookup → outputs.
    ///
    /// The closures capture the session and the output subjects, never
    /// `self`: the view model owns the pipeline, not the other way round.
    func makePipeline(for session: Session) -> any Disposable {
        let outputs = outputs, plainZoom = plainZoom, framingNow = framingNow, motion = motion
        let selected = session.selections.asObservable()
            .distinctUntilChanged()
            .subscribe(
                onNext: { index in
                    if session.absorbsSeed(index) {
                        outputs.reselect(index, in: session)
                    } else {
                        let framing = framingNow.value
                        outputs.select(
                            index, in: session, zoom: framing?.zoom ?? plainZoom, framing: framing,
                            reduceMotion: motion.reduceMotion)
                    }
                },
                onCompleted: { outputs.complete() }
            )
        let debounced = focus.asObservable()
            .debounce(debounceMs, scheduler: scheduler)
            .subscribe(session.selections.asObserver())
        return Disposables.create(selected, debounced)
    }
}

/// The view model's output subjects, kept together so the pipeline can
/// capture them without capturing the view model.
struct Outputs: Sendable {
    let camera = PublishSubject<CameraPosition>()
    let marker = PublishSubject<MarkerSelection>()
    let cards = PublishSubject<CardState>()
    let scroll = PublishSubject<ScrollCommand>()
    let status = PublishSubject<AccessibilityStatus>()
    let autoplay = PublishSubject<AutoplayState>()

    /// A selected index that passed distinct: looks its store up (the only
    /// lookup of the pipeline; in `fit` mode its neighbours' too) and emits
    /// camera, then marker. A failed lookup ends both with the error, as an
    /// Rx source failing would.
    func select(_ index: Int, in session: Session, zoom: Double, framing: MapFraming?, reduceMotion: Bool) {
        let pin: StorePin
        var move: CameraPosition?
        do {
            pin = try session.stores.pin(at: index)
            move =
                try framing.map { framing throws in try session.frame(pin, at: index, with: framing) }
                ?? CameraPosition(index: index, pin: pin, zoom: zoom)
        } catch {
            camera.onError(error)
            marker.onError(error)
            return
        }
        let previous = session.previousIndex.withLock { previous in
            defer { previous = index }
            return previous
        }
        session.selectedStoreId.withLock { $0 = pin.id }
        if reduceMotion, let current = move {
            // Reduced motion (UIAccessibility.isReduceMotionEnabled,
            // prefers-reduced-motion): the camera is set, never flown; a
            // list's first camera still has nothing to animate.
            move?.animation = current.animation?.kind == CameraTransition.Kind.none ? CameraTransition.none : .jump
        }
        if let move { camera.onNext(move) }
        marker.onNext(MarkerSelection(index: index, storeId: pin.id, previousIndex: previous))
    }

    /// A reload's kept store, already on the map: selects its marker in the
    /// new list (its first selection there) and leaves the camera alone.
    func reselect(_ index: Int, in session: Session) {
        guard let id = session.selectedStoreId.withLock({ $0 }) else { return }
        session.previousIndex.withLock { $0 = index }
        marker.onNext(MarkerSelection(index: index, storeId: id, previousIndex: nil))
    }

    func complete() {
        camera.onCompleted()
        marker.onCompleted()
        cards.onCompleted()
        scroll.onCompleted()
        status.onCompleted()
        autoplay.onCompleted()
    }
}

/// The framing in use, shared by the view model and its pipeline (which
/// must not hold the view model).
final class FramingNow: Sendable {
    private let framing: StateLock<MapFraming?>

    init(_ framing: MapFraming?) {
        self.framing = StateLock(framing)
    }

    var value: MapFraming? {
        get { framing.withLock { $0 } }
        set { framing.withLock { $0 = newValue } }
    }
}

/// One loaded store list: its stores, its layout, and the stream of indices
/// offered for selection (debounced focus, the initial index, taps).
final class Session: Sendable {
    let stores: any StoreDirectory
    let count: Int
    let layout: CarouselLayout
    let selections = PublishSubject<Int>()
    /// The last selected index, for ``MarkerSelection/previousIndex``.
    let previousIndex = StateLock<Int?>(nil)
    /// Where the last emitted camera looks: what `keep` tests and the next
    /// transition starts from; nil before the list's first camera.
    let viewpoint = StateLock<MapViewpoint?>(nil)
    /// The id of the store last selected (the camera's), for a reload.
    let selectedStoreId = StateLock<String?>(nil)
    /// At a reload that keeps the store on the map: its new index, which
    /// seeds distinct without moving the camera; taken by the first selection.
    private let seed: StateLock<Int?>

    init(stores: some StoreDirectory, layout: CarouselLayout, keeping kept: (index: Int, storeId: String)? = nil) {
        self.stores = stores
        self.count = stores.count
        self.layout = layout
        seed = StateLock(kept?.index)
        selectedStoreId.withLock { $0 = kept?.storeId }
    }

    /// Whether `index` is the kept store's seed (consumed by this call).
    func absorbsSeed(_ index: Int) -> Bool {
        seed.withLock { seed in
            defer { seed = nil }
            return seed == index
        }
    }
}

extension Session {
    /// Store `index`'s camera under `framing`, with its transition from the
    /// last one (none for the list's first); nil when `keep` stays put.
    func frame(_ pin: StorePin, at index: Int, with framing: MapFraming) throws -> CameraPosition? {
        var neighbors: [Coordinate] = []
        if framing.mode == .fit {
            for other in framing.fitIndices(around: index, count: count, wrapping: layout.loop != nil) where other != index {
                let neighbor = try stores.pin(at: other)
                neighbors.append(Coordinate(latitude: neighbor.latitude, longitude: neighbor.longitude))
            }
        }
        return viewpoint.withLock { viewpoint -> CameraPosition? in
            let store = Coordinate(latitude: pin.latitude, longitude: pin.longitude)
            guard let framed = framing.frame(store, fitting: neighbors, from: viewpoint) else { return nil }
            defer { viewpoint = framed.viewpoint }
            return CameraPosition(
                index: index, pin: pin, framed: framed, animation: framing.transition(from: viewpoint, to: framed.viewpoint))
        }
    }
}

extension MapSyncViewModel {
    /// The map changed size — a rotation, an iPad window resized, a sheet
    /// over part of it — so cameras are framed by `framing` from now on,
    /// and the selected store is framed anew at once: one camera with a
    /// `jump` transition (the map's own size changed; there is nothing to
    /// fly), and no marker, which stays selected. Nothing is emitted before
    /// a list is loaded, nor for a view model made without a framing's
    /// store selected yet.
    ///
    /// - Throws: `MapFramingError` when `framing` does not validate; the
    ///   framing in use then stays.
    public func setFraming(_ framing: MapFraming) throws(MapFramingError) {
        try framing.validate()
        framingNow.value = framing
        guard let session = state.withLock({ $0.session }), let index = session.previousIndex.withLock({ $0 }) else { return }
        let camera: CameraPosition?
        do {
            let pin = try session.stores.pin(at: index)
            // The old viewpoint was framed for the old size: `keep` must not
            // keep it, and the move is set at once.
            session.viewpoint.withLock { $0 = nil }
            camera = try session.frame(pin, at: index, with: framing).map { framed in
                var camera = framed
                camera.animation = .jump
                return camera
            }
        } catch {
            outputs.camera.onError(error)
            return
        }
        if let camera { outputs.camera.onNext(camera) }
    }
}
