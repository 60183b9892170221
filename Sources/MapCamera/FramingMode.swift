/// How the camera frames the focused store.
public enum FramingMode: String, CaseIterable, Hashable, Sendable {
    /// The camera centre is the store (the map-sync article's
    /// `latitude = store.y, longitude = store.x`), insets ignored.
    case center
    /// The store sits at the centre of the visible rect: the part of the map
    /// the UI does not cover.
    case inset
    /// The store and its neighbouring cards' stores all visible, the zoom
    /// chosen to fit them.
    case fit
    /// The camera moves only when the store leaves the visible rect shrunk
    /// by a margin; then it moves as `inset` at the current zoom.
    case keep
}
