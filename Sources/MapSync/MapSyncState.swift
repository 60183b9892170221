#if canImport(Observation)
    import CarouselEngine
    import Observables
    import Observation

    /// The view model's latest outputs as Observation state, for SwiftUI: a
    /// view that reads ``camera`` redraws when the camera moves, and a
    /// `Map(position:)` or a `scrollPosition(id:)` binding follows it.
    ///
    /// It subscribes to a ``MapSyncAppModel`` when created and holds the
    /// subscriptions until it is released. Every property is set on the main
    /// actor, where the model sends its outputs.
    ///
    /// Observation arrives with iOS 17, macOS 14, tvOS 17 and watchOS 10; below
    /// that, use the model's async sequences.
    @available(iOS 17, macOS 14, tvOS 17, watchOS 10, *)
    @MainActor
    @Observable
    public final class MapSyncState {
        /// The card in focus at the latest frame (not debounced); nil before
        /// the first frame and for an empty list.
        public private(set) var focusedIndex: Int?
        /// The selected marker (with the one to deselect); nil before the first
        /// selection.
        public private(set) var selectedMarker: MarkerSelection?
        /// Where the map camera goes; nil before the first camera.
        public private(set) var camera: CameraPosition?
        /// The error a store lookup ended the outputs with; nil while they run.
        public private(set) var failure: (any Error)?

        private let subscriptions = CompositeDisposable()

        /// The state of `model`, from now on (values sent before are not
        /// replayed).
        public init(observing model: MapSyncAppModel) {
            let core = model.core
            // The model sends on the main actor (its inputs are main-actor
            // methods, and its scheduler must run on the main actor), so these
            // sinks are on it too; `assumeIsolated` states that, and traps at
            // once on a scheduler that breaks the contract instead of racing.
            core.camera.subscribe(
                onNext: { [weak self] camera in MainActor.assumeIsolated { self?.camera = camera } },
                onError: { [weak self] error in MainActor.assumeIsolated { self?.failure = error } }
            ).disposed(by: subscriptions)
            core.marker.subscribe(
                onNext: { [weak self] marker in MainActor.assumeIsolated { self?.selectedMarker = marker } }
            ).disposed(by: subscriptions)
            core.cards.subscribe(
                onNext: { [weak self] cards in
                    MainActor.assumeIsolated {
                        // Every frame sends its cards; the focus changes far
                        // less often, and an unchanged assignment would still
                        // notify observers.
                        guard let self, self.focusedIndex != cards.focusedIndex else { return }
                        self.focusedIndex = cards.focusedIndex
                    }
                }
            ).disposed(by: subscriptions)
        }

        // Not `isolated deinit`, which needs the iOS 18.4 runtime: disposing is
        // thread-safe, and `subscriptions` is a `Sendable` constant.
        deinit {
            subscriptions.dispose()
        }
    }
#endif
