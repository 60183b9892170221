import CarouselEngine
import MapCamera
import MapSync
import Observables

/// A scripted carousel gesture session: a layout, the card to
/// start on, and timed events — drags, raw offsets, programmatic scrolls,
/// marker taps — replayed in virtual time by ``ScrollSimulation``.
///
/// An optional `map` object frames every camera for the map the carousel
/// covers (`MapFraming`; keys `mapWidth`, `mapHeight`, `insets`,
/// `tileSize`, `framing`, `neighbors`, `fitPadding`, `keepMargin`,
/// `minZoom`, `maxZoom`, `zoom`, `maxDurationMs`).
///
/// The `layout` object also takes map sync's accessibility keys:
/// `autoplayMs`, `autoplayEnd` (`rewind` or `stop`), `reduceMotion` and
/// `statusTemplate`; and events page with `accessibilityScroll`, play and
/// stop autoplay, and pause it for an outside reason:
///
/// ```json
/// {"layout": {"autoplayMs": 5000, "statusTemplate": "Store {position} of {count}, {name}"},
///  "events": [
///    {"at": 0,     "pause": "hover", "on": true},
///    {"at": 2000,  "pause": "hover", "on": false},
///    {"at": 9000,  "accessibilityScroll": "next"},
///    {"at": 12000, "autoplay": "stop"},
///    {"at": 20000, "end": true}
///  ]}
/// ```
///
/// Read one from JSON with ``init(json:)``:
///
/// ```json
/// {"layout": {"viewport": 390, "itemLength": 300, "spacing": 12,
///             "behavior": "groupPagingCentered", "debounceMs": 250},
///  "initialIndex": 0,
///  "events": [
///    {"at": 0,    "drag": {"by": 180, "durationMs": 150, "velocity": 1.1}},
///    {"at": 1400, "offset": 936},
///    {"at": 2000, "scrollTo": 2, "animated": true},
///    {"at": 2600, "tapMarker": 5},
///    {"at": 4000, "end": true}
///  ]}
/// ```
public struct ScrollScript: Hashable, Sendable {
    /// One timed event.
    public struct Event: Hashable, Sendable {
        /// When it happens, in ms of virtual time (≥ 0).
        public var at: Milliseconds
        /// What happens.
        public var action: Action

        public init(at: Milliseconds, _ action: Action) {
            self.at = at
            self.action = action
        }
    }

    /// What an event does.
    public enum Action: Hashable, Sendable {
        /// The finger moves the content by `by` points (positive toward later
        /// items) linearly over `durationMs`, then lifts with `velocity`
        /// (pt/ms; nil: the drag's own speed, `by / durationMs`). In a
        /// `rightToLeft` layout `by`, `velocity` and raw offsets are a flipped
        /// flow layout's `contentOffset.x`: positive toward EARLIER items.
        case drag(by: Double, durationMs: Milliseconds, velocity: Double?)
        /// A raw offset report, as `scrollViewDidScroll` gives: no physics,
        /// cancels any motion.
        case offset(Double)
        /// A programmatic scroll to a store's card, animated or at once.
        case scrollTo(Int, animated: Bool)
        /// The user taps a store's marker on the map.
        case tapMarker(Int)
        /// The input completes: a pending debounced value is emitted now.
        case end
        /// The user's play (`true`, `"autoplay": "start"`) or stop (`false`,
        /// `"autoplay": "stop"`): the APG carousel example's rotation button.
        case autoplay(play: Bool)
        /// An outside reason to pause autoplay begins (`on`) or ends
        /// (`"pause": "hover", "on": true`); one of
        /// `AutoplayPauseReason.external`.
        case pause(AutoplayPauseReason, on: Bool)
        /// VoiceOver's three-finger swipe or TalkBack's scroll action: one
        /// store `next` or `previous`, logically (in right-to-left too).
        case accessibilityScroll(AccessibilityScrollDirection)

        /// The event's name as a script spells it.
        public var name: String {
            switch self {
            case .drag: "drag"
            case .offset: "offset"
            case .scrollTo: "scrollTo"
            case .tapMarker: "tapMarker"
            case .end: "end"
            case .autoplay: "autoplay"
            case .pause: "pause"
            case .accessibilityScroll: "accessibilityScroll"
            }
        }
    }

    /// The carousel layout (the engine's keys); command-line LAYOUT flags may
    /// be laid over it.
    public var layout: LayoutSpec
    /// Map sync's debounce in ms (the `layout` object's `debounceMs`); nil:
    /// `MapSyncViewModel.defaultDebounceMs`.
    public var debounceMs: Milliseconds?
    /// The camera zoom (the `layout` object's `zoom`); nil:
    /// `MapSyncViewModel.defaultZoom`.
    public var zoom: Double?
    /// The map the cameras are framed for (the `map` object); nil: cameras
    /// centred on the store at ``resolvedZoom``, with no transition.
    public var map: MapFraming?
    /// The store the carousel rests on at t = 0.
    public var initialIndex: Int
    /// Autoplay's interval in ms (the `layout` object's `autoplayMs`); nil:
    /// no autoplay.
    public var autoplayMs: Milliseconds?
    /// What autoplay does at the last store without a loop (the `layout`
    /// object's `autoplayEnd`); nil: `rewind`. Needs ``autoplayMs``.
    public var autoplayEnd: AutoplayEnd?
    /// The user's reduced-motion preference (the `layout` object's
    /// `reduceMotion`); nil: off.
    public var reduceMotion: Bool?
    /// The accessibility status template (the `layout` object's
    /// `statusTemplate`); nil: `StatusTemplate.standard`. A script that
    /// gives one, or pages with `accessibilityScroll`, has `status` lines in
    /// its timeline.
    public var statusTemplate: StatusTemplate?
    /// The events, in non-decreasing ``Event/at`` order; events at the same
    /// instant happen in list order.
    public var events: [Event]

    public init(
        layout: LayoutSpec = LayoutSpec(), debounceMs: Milliseconds? = nil, zoom: Double? = nil,
        map: MapFraming? = nil, initialIndex: Int = 0, autoplayMs: Milliseconds? = nil, autoplayEnd: AutoplayEnd? = nil,
        reduceMotion: Bool? = nil, statusTemplate: StatusTemplate? = nil, events: [Event]
    ) {
        self.autoplayMs = autoplayMs
        self.autoplayEnd = autoplayEnd
        self.reduceMotion = reduceMotion
        self.statusTemplate = statusTemplate
        self.layout = layout
        self.debounceMs = debounceMs
        self.zoom = zoom
        self.map = map
        self.initialIndex = initialIndex
        self.events = events
    }

    /// The debounce the script runs with.
    public var resolvedDebounceMs: Milliseconds { debounceMs ?? MapSyncViewModel.defaultDebounceMs }
    /// The zoom the script runs with.
    public var resolvedZoom: Double { zoom ?? MapSyncViewModel.defaultZoom }

    /// Whether the last event is `end`.
    public var hasEnd: Bool {
        if case .end = events.last?.action { true } else { false }
    }

    /// Whether an event pages with `accessibilityScroll`.
    public var hasAccessibilityScroll: Bool {
        events.contains { event in
            if case .accessibilityScroll = event.action { true } else { false }
        }
    }

    /// The autoplay the script runs with; nil: none.
    ///
    /// - Throws: the message for an interval out of range, or an
    ///   `autoplayEnd` without `autoplayMs`.
    public func resolvedAutoplay() throws(ScrollScriptError) -> AutoplaySettings? {
        guard let autoplayMs else {
            if autoplayEnd != nil {
                throw ScrollScriptError("layout.autoplayEnd only applies to autoplay: give layout.autoplayMs too")
            }
            return nil
        }
        do {
            return try AutoplaySettings(intervalMs: autoplayMs, end: autoplayEnd ?? .rewind)
        } catch {
            throw ScrollScriptError("layout.autoplayMs: \(error)")
        }
    }
}

// MARK: - Validation

extension ScrollScript {
    /// Checks everything that does not depend on the store list: event
    /// order, durations, the map-sync numbers. ``init(json:)`` calls it; call
    /// it yourself on a script built in code.
    public func validate() throws(ScrollScriptError) {
        if let debounceMs, !(debounceMs.isFinite && debounceMs >= 0) {
            throw ScrollScriptError("layout.debounceMs must be a finite number of ms ≥ 0 (got \(ScrollScriptError.format(debounceMs)))")
        }
        if let zoom, !(zoom.isFinite && zoom >= 0) {
            throw ScrollScriptError("layout.zoom must be a finite zoom level ≥ 0 (got \(ScrollScriptError.format(zoom)))")
        }
        _ = try resolvedAutoplay()
        if let map {
            do {
                try map.validate()
            } catch {
                throw ScrollScriptError(error.description(naming: "map.\(error.parameter)"))
            }
        }
        var previous = 0.0
        for (position, event) in events.enumerated() {
            func fail(_ reason: String) -> ScrollScriptError {
                ScrollScriptError(reason, event: position + 1, at: event.at)
            }
            guard event.at.isFinite, event.at >= 0 else { throw fail("at must be a finite number of ms ≥ 0") }
            guard event.at >= previous else {
                throw fail(
                    "events out of order: at \(ScrollScriptError.format(event.at)) comes after \(ScrollScriptError.format(previous)); list events in time order"
                )
            }
            previous = event.at
            switch event.action {
            case let .drag(by, durationMs, velocity):
                guard by.isFinite else { throw fail("drag.by must be a finite number of points") }
                guard durationMs.isFinite, durationMs >= 0 else {
                    throw fail("drag.durationMs must be a finite number of ms ≥ 0 (got \(ScrollScriptError.format(durationMs)))")
                }
                if let velocity, !velocity.isFinite { throw fail("drag.velocity must be a finite number of points per ms") }
                if durationMs == 0, velocity == nil {
                    throw fail("a drag over 0 ms has no speed of its own: give drag.velocity")
                }
            case let .offset(offset):
                guard offset.isFinite else { throw fail("offset must be a finite number of points") }
            case .end:
                guard position == events.count - 1 else {
                    throw fail("end must be the last event: nothing happens after the input completes")
                }
            case .scrollTo, .tapMarker, .autoplay, .accessibilityScroll:
                break
            case .pause(let reason, _):
                guard AutoplayPauseReason.external.contains(reason) else {
                    throw fail(AutoplayError.notExternal(reason).description)
                }
            }
        }
    }

    /// Checks the store indices against a list of `storeCount` stores: the
    /// initial index, every `scrollTo` and `tapMarker`.
    public func validate(storeCount: Int) throws(ScrollScriptError) {
        try validate()
        if storeCount == 0 ? initialIndex != 0 : !(0..<storeCount).contains(initialIndex) {
            throw ScrollScriptError("initialIndex \(initialIndex) is out of range: \(Self.describe(storeCount: storeCount))")
        }
        for (position, event) in events.enumerated() {
            let index: Int
            switch event.action {
            case let .scrollTo(target, _): index = target
            case let .tapMarker(target): index = target
            default: continue
            }
            guard (0..<storeCount).contains(index) else {
                throw ScrollScriptError(
                    "\(event.action.name) \(index) is out of range: \(Self.describe(storeCount: storeCount))",
                    event: position + 1, at: event.at)
            }
        }
    }

    private static func describe(storeCount: Int) -> String {
        switch storeCount {
        case 0: "the list is empty"
        case 1: "the list has 1 store (index 0)"
        default: "the list has \(storeCount) stores (0...\(storeCount - 1))"
        }
    }
}
