import ArgumentParser
import CarouselEngine
import MapSync

/// The layout flags, shared by `snap`, `focus` and `simulate`.
///
/// Every engine flag is optional so it can be laid over a script's `layout`
/// object (``applied(to:)``); unset flags fall back to ``LayoutSpec``'s
/// defaults (a 390-pt viewport, 300-pt cards, spacing 12,
/// `groupPagingCentered`). `--debounce-ms` and `--zoom` belong to map sync:
/// they are carried here for its commands and ignored by the engine.
struct LayoutOptions: ParsableArguments {
    @Option(help: "Scroll axis (default horizontal).")
    var axis: ScrollAxis?

    @Option(parsing: .unconditional, help: ArgumentHelp("Viewport length along the axis, in points (default 390).", valueName: "W"))
    var viewport: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp("Item length in points (default 300).", valueName: "w"))
    var itemLength: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp("Item length as a fraction in (0, 1] of the viewport, instead of --item-length.", valueName: "f"))
    var itemFraction: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp("Spacing between items, in points (default 12).", valueName: "s"))
    var spacing: Double?

    @Option(parsing: .unconditional, help: "Inset before the first item for leading alignment, in points (default 0).")
    var sectionInset: Double?

    @Option(help: "Snap anchor (default: the behavior's).")
    var alignment: CardAlignment?

    @Option(help: "Snap rule (default: the behavior's).")
    var snap: SnapRule?

    @Option(help: "UIKit-style preset (default groupPagingCentered); --alignment, --snap and --deceleration override its parts.")
    var behavior: ScrollBehavior?

    @Option(
        help: ArgumentHelp("Deceleration: normal (0.998/ms), fast (0.99/ms) or a rate in (0, 1) (default: the behavior's).", valueName: "normal|fast|RATE"),
        transform: { text throws(LayoutError) in try Deceleration(parsing: text) }
    )
    var deceleration: Deceleration?

    // A flag, not an option: an app knows its direction from the locale
    // (UIKit's effectiveUserInterfaceLayoutDirection), so the CLI only
    // needs to say "the other way".
    @Flag(
        help: """
            Right-to-left: card 0 at the right edge; offsets, drags and velocities are a flipped \
            UICollectionViewFlowLayout's contentOffset.x, growing from the left (default: the script's, else left-to-right).
            """
    )
    var rtl = false

    @Flag(inversion: .prefixedNo, help: "Loop the items, with --loop-padding copies at each end.")
    var loop: Bool?

    @Option(parsing: .unconditional, help: ArgumentHelp("Copies at each end of a looping carousel (default 2).", valueName: "K"))
    var loopPadding: Int?

    @Option(parsing: .unconditional, help: "Scale of an item with nothing visible, in [0, 1] (default 0.7).")
    var minScale: Double?

    @Option(parsing: .unconditional, help: "Duration of animated scrolls, in ms (default 300).")
    var animationMs: Double?

    @Option(parsing: .unconditional, help: "Interval between frames, in ms (default 1000/60).")
    var frameMs: Double?

    @Option(
        parsing: .unconditional, help: "Map sync: silence before the camera follows the carousel, in ms (default \(LayoutOptions.defaultDebounceMs.formatted))."
    )
    var debounceMs: Double?

    @Option(parsing: .unconditional, help: "Map sync: camera zoom level (default \(LayoutOptions.defaultZoom.formatted)).")
    var zoom: Double?

    /// Map sync's debounce when `--debounce-ms` is not given: the library's.
    static let defaultDebounceMs = MapSyncViewModel.defaultDebounceMs
    /// The camera zoom when `--zoom` is not given: the library's.
    static let defaultZoom = MapSyncViewModel.defaultZoom

    /// The flags as a spec; unset flags stay unset.
    var spec: LayoutSpec { applied(to: LayoutSpec()) }

    /// `base` (e.g. a script's layout) with every flag given here laid over it.
    func applied(to base: LayoutSpec) -> LayoutSpec {
        var spec = base
        spec.axis = axis ?? base.axis
        spec.viewport = viewport ?? base.viewport
        // Either length flag replaces the base's length, whichever way it was given.
        if itemLength != nil || itemFraction != nil {
            spec.itemLength = itemLength
            spec.itemFraction = itemFraction
        }
        spec.spacing = spacing ?? base.spacing
        spec.sectionInset = sectionInset ?? base.sectionInset
        spec.alignment = alignment ?? base.alignment
        spec.snap = snap ?? base.snap
        spec.behavior = behavior ?? base.behavior
        spec.deceleration = deceleration ?? base.deceleration
        spec.loop = loop ?? base.loop
        spec.loopPadding = loopPadding ?? base.loopPadding
        spec.minScale = minScale ?? base.minScale
        spec.animationMs = animationMs ?? base.animationMs
        spec.frameMs = frameMs ?? base.frameMs
        spec.layoutDirection = rtl ? .rightToLeft : base.layoutDirection
        return spec
    }

    /// The validated layout of `dataCount` items.
    func layout(dataCount: Int) throws(LayoutError) -> CarouselLayout {
        try spec.layout(dataCount: dataCount)
    }

    /// Map sync's debounce in ms, defaulted.
    var resolvedDebounceMs: Double { debounceMs ?? Self.defaultDebounceMs }
    /// The camera zoom, defaulted.
    var resolvedZoom: Double { zoom ?? Self.defaultZoom }

    func validate() throws {
        if itemLength != nil, itemFraction != nil {
            throw CLIError("--item-length and --item-fraction are exclusive: give one of them")
        }
        if loopPadding != nil, loop != true {
            throw CLIError("--loop-padding only applies with --loop")
        }
        try spec.validate()
        if let debounceMs, !(debounceMs.isFinite && debounceMs >= 0) {
            throw CLIError("--debounce-ms must be a finite number of ms ≥ 0 (got \(debounceMs))")
        }
        if let zoom, !(zoom.isFinite && zoom >= 0) {
            throw CLIError("--zoom must be a finite zoom level ≥ 0 (got \(zoom))")
        }
    }
}

extension Double {
    /// `250` rather than `250.0`, for help texts.
    fileprivate var formatted: String {
        rounded() == self && abs(self) < 1e15 ? String(Int(self)) : String(self)
    }
}

// The engine's enums parse from their raw names ("center", "groupPaging").
extension ScrollAxis: ExpressibleByArgument {}
extension CardAlignment: ExpressibleByArgument {}
extension SnapRule: ExpressibleByArgument {}
extension ScrollBehavior: ExpressibleByArgument {}
