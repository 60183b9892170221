import CarouselEngine
import MapSync
import Observables

extension ScrollSimulation {
    /// The outcome of a simulated scroll script: the timeline (when it was
    /// collected rather than streamed), and where the carousel stood when the
    /// simulation stopped.
    public struct Outcome: Sendable {
        /// The layout the script ran with.
        public let layout: CarouselLayout
        /// Every entry, ordered by time, then by the order they happened; empty
        /// when the entries were streamed to a consumer instead
        /// (``ScrollSimulation/run(trace:until:limits:onEntry:)``).
        public let timeline: [TimelineEntry]
        /// When the simulation stopped, in ms of virtual time.
        public let endTime: Milliseconds
        /// The carousel's content offset then.
        public let offset: Double

        public init(layout: CarouselLayout, timeline: [TimelineEntry] = [], endTime: Milliseconds, offset: Double) {
            self.layout = layout
            self.timeline = timeline
            self.endTime = endTime
            self.offset = offset
        }

        /// The card focused when the simulation stopped (a data index); nil for an empty list.
        public var focusedIndex: Int? { layout.focusedDataIndex(at: offset) }

        /// The cards visible when the simulation stopped.
        public var visibleItems: VisibleItems { layout.visibleItems(at: offset) }
    }
}
