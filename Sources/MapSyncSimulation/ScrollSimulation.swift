import CarouselEngine
import Locks
import MapSync
import Observables

/// Replays a ``ScrollScript`` in virtual time: script events drive
/// a `CarouselScroller`, its frames (every `frameMs`) feed a
/// `MapSyncViewModel` on a `VirtualTimeScheduler`, and what comes out is
/// the timeline of camera moves and marker selections.
///
/// Events, drag steps and frames run on the scheduler's input lane, so a
/// debounce timer falling due at the same instant sees them first (an input at T before a timer due at T).
/// At one instant, script events come in list order and the frame showing
/// their net effect follows them.
public struct ScrollSimulation: Sendable {
    /// The script, validated against the store list.
    public let script: ScrollScript
    /// The layout resolved for the list.
    public let layout: CarouselLayout
    /// The stores the view model looks up.
    public let stores: any StoreDirectory
    /// Where the events come from when they are read from a file as the
    /// simulation goes; nil: `script.events`.
    private let file: ScrollScriptFile?
    /// The autoplay the script runs with; nil: none.
    public let autoplay: AutoplaySettings?
    /// Whether the script's last event is `end`.
    private let hasEnd: Bool
    /// Whether the timeline has `status` lines: the script gives a
    /// `statusTemplate` or pages with `accessibilityScroll`. (Other scripts'
    /// timelines stay as they were before statuses existed.)
    public let recordsStatus: Bool

    /// Checks `script` against `stores` (indices in range, a valid layout);
    /// nothing runs if it throws.
    public init(script: ScrollScript, stores: some StoreDirectory) throws(ScrollScriptError) {
        try self.init(script: script, stores: stores, hasEnd: script.hasEnd)
    }

    /// `script` checked against `stores`, its events ending with `end` or not.
    private init(script: ScrollScript, stores: some StoreDirectory, hasEnd: Bool) throws(ScrollScriptError) {
        try script.validate(storeCount: stores.count)
        do {
            layout = try script.layout.layout(dataCount: stores.count)
        } catch {
            throw ScrollScriptError(error.description)
        }
        self.script = script
        self.stores = stores
        file = nil
        autoplay = try script.resolvedAutoplay()
        self.hasEnd = hasEnd
        recordsStatus = script.statusTemplate != nil || script.hasAccessibilityScroll
        try Self.checkEnd(autoplay: autoplay, hasEnd: hasEnd)
    }

    /// Checks the script `file` holds against `stores`; its events are read
    /// from the file one at a time as the simulation runs, so memory does not
    /// grow with their number.
    public init(file: ScrollScriptFile, stores: some StoreDirectory) throws(ScrollScriptError) {
        try file.validate(storeCount: stores.count)
        // The header holds no events: the file says whether they end.
        let header = try ScrollSimulation(script: file.script, stores: stores, hasEnd: file.hasEnd)
        script = header.script
        layout = header.layout
        self.stores = stores
        self.file = file
        autoplay = header.autoplay
        hasEnd = file.hasEnd
        recordsStatus = file.script.statusTemplate != nil || file.hasAccessibilityScroll
    }

    /// Autoplay turns the carousel forever: a script with it must end with
    /// `end`, or its run would go on to the virtual-time limit.
    private static func checkEnd(autoplay: AutoplaySettings?, hasEnd: Bool) throws(ScrollScriptError) {
        if autoplay != nil, !hasEnd {
            throw ScrollScriptError(
                #"autoplay turns the carousel forever: end the script with an {"at": t, "end": true} event"#)
        }
    }

    /// Runs the script: until its `end` event or until nothing is pending,
    /// or only up to `time` if given, and collects the timeline.
    ///
    /// - Parameters:
    ///   - trace: also record frames, releases, loop jumps and commanded
    ///     scrolls.
    ///   - time: stop the run at this time instead of the script's end.
    ///   - limits: the most virtual time and frames the run may take.
    /// - Throws: a store lookup's error, or a ``SimulationLimitError``.
    public func run(
        trace: Bool = false, until time: Milliseconds? = nil, limits: SimulationLimits = .standard
    ) throws -> Outcome {
        let timeline = TimelineCollector()
        let end = try run(trace: trace, until: time, limits: limits, onEntry: timeline.append)
        return Outcome(layout: end.layout, timeline: timeline.entries, endTime: end.endTime, offset: end.offset)
    }

    /// Runs the script like ``run(trace:until:limits:)`` but hands each
    /// timeline entry to `onEntry` as it is produced, keeping none: memory
    /// stays flat however long the timeline. The returned simulation's
    /// ``ScrollSimulation/Outcome/timeline`` is empty. An error `onEntry` throws stops the
    /// run and is rethrown.
    ///
    /// - Parameters:
    ///   - trace: also record frames, releases, loop jumps and commanded
    ///     scrolls.
    ///   - time: stop the run at this time instead of the script's end.
    ///   - limits: the most virtual time and frames the run may take.
    ///   - onEntry: called with each timeline entry as it happens.
    public func run(
        trace: Bool = false, until time: Milliseconds? = nil, limits: SimulationLimits = .standard,
        onEntry: @escaping @Sendable (TimelineEntry) throws -> Void
    ) throws -> Outcome {
        try limits.validate()
        let run = try Run(
            layout: layout, stores: stores, initialIndex: script.initialIndex, trace: trace,
            debounceMs: script.resolvedDebounceMs, zoom: script.resolvedZoom, framing: script.map,
            accessibility: Run.Accessibility(
                autoplay: autoplay, reduceMotion: script.reduceMotion ?? false,
                statusTemplate: script.statusTemplate ?? .standard, recordsStatus: recordsStatus),
            limits: limits, consume: onEntry)
        if let file {
            var events = try file.makeEvents()
            return try run.play(script, events: { () throws(ScrollScriptError) in try events.next() }, until: time)
        }
        var events = script.events.makeIterator()
        return try run.play(script, events: { events.next() }, until: time)
    }
}

/// The entries of a run that collects its timeline; the simulation runs on
/// one thread, the lock only makes the closure `Sendable`.
private final class TimelineCollector: Sendable {
    private let storage = StateLock<[TimelineEntry]>([])

    @Sendable func append(_ entry: TimelineEntry) {
        storage.withLock { $0.append(entry) }
    }

    var entries: [TimelineEntry] { storage.withLock { $0 } }
}
