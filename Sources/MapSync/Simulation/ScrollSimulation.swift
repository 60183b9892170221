import CarouselEngine
import Observables

/// Replays a ``ScrollScript`` in virtual time: script events drive
/// a `CarouselScroller`, its frames (every `frameMs`) feed a
/// ``MapSyncViewModel`` on a `VirtualTimeScheduler`, and what comes out is
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

    /// Checks `script` against `stores` (indices in range, a valid layout);
    /// nothing runs if it throws.
    public init(script: ScrollScript, stores: some StoreDirectory) throws(ScrollScriptError) {
        try script.validate(storeCount: stores.count)
        do {
            layout = try script.layout.layout(dataCount: stores.count)
        } catch {
            throw ScrollScriptError(error.description)
        }
        self.script = script
        self.stores = stores
    }

    /// Runs the script: until its `end` event or until nothing is pending,
    /// or only up to `time` if given.
    ///
    /// - Parameters:
    ///   - trace: also record frames, releases, loop jumps and commanded
    ///     scrolls.
    ///   - time: stop the run at this time instead of the script's end.
    /// - Throws: a store lookup's error.
    public func run(trace: Bool = false, until time: Milliseconds? = nil) throws -> Outcome {
        let run = try Run(
            layout: layout, stores: stores, initialIndex: script.initialIndex, trace: trace,
            debounceMs: script.resolvedDebounceMs, zoom: script.resolvedZoom, framing: script.map)
        return try run.play(script, until: time)
    }
}
