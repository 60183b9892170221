import Clustering
import Geo

/// A list's cluster hierarchy, wherever it lives: stored in the catalog and
/// read a part at a time, or built in memory for a catalog opened
/// read-only, which cannot store it.
///
/// Each requirement goes to the hierarchy inside, so the stored index's own
/// `markers(atZoom:in:)` (which reads only the markers it finds) is kept.
enum ListClusterIndex: ClusterHierarchy {
    case stored(StoredClusterIndex)
    case built(ClusterIndex)

    var options: ClusterOptions {
        switch self {
        case let .stored(index): index.options
        case let .built(index): index.options
        }
    }

    var pointCount: Int {
        switch self {
        case let .stored(index): index.pointCount
        case let .built(index): index.pointCount
        }
    }

    func level(atZoom zoom: Int) throws -> ClusterLevel? {
        switch self {
        case let .stored(index): try index.level(atZoom: zoom)
        case let .built(index): index.level(atZoom: zoom)
        }
    }

    func nextIndex(ofMarker marker: Int, atZoom zoom: Int) throws -> Int {
        switch self {
        case let .stored(index): try index.nextIndex(ofMarker: marker, atZoom: zoom)
        case let .built(index): index.nextIndex(ofMarker: marker, atZoom: zoom)
        }
    }

    func storedUnclusterZoom(ofPoint point: Int) throws -> Int {
        switch self {
        case let .stored(index): try index.storedUnclusterZoom(ofPoint: point)
        case let .built(index): index.storedUnclusterZoom(ofPoint: point)
        }
    }

    func projectedPoint(_ point: Int) throws -> (x: Double, y: Double) {
        switch self {
        case let .stored(index): try index.projectedPoint(point)
        case let .built(index): index.projectedPoint(point)
        }
    }

    func markers(atZoom zoom: Int, in rectangles: [UnitRectangle]) throws -> [ClusterMarker] {
        switch self {
        case let .stored(index): try index.markers(atZoom: zoom, in: rectangles)
        case let .built(index): try index.markers(atZoom: zoom, in: rectangles)
        }
    }

    func markerID(atZoom zoom: Int, index marker: Int) throws -> Int {
        switch self {
        case let .stored(index): try index.markerID(atZoom: zoom, index: marker)
        case let .built(index): try index.markerID(atZoom: zoom, index: marker)
        }
    }
}
