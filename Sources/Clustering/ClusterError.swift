/// What a clustering call refuses, in words a user can act on.
public enum ClusterError: Error, Sendable, Hashable, CustomStringConvertible {
    case invalidOptions(String)
    case invalidZoom(Double)
    case unknownCluster(Int)
    case pointOutOfRange(index: Int, count: Int)
    case tooManyPoints(Int)
    case corruptData(String)
    case invalidTile(z: Int, x: Int, y: Int)

    public var description: String {
        switch self {
        case let .invalidOptions(reason): "invalid clustering options: \(reason)"
        case let .invalidZoom(zoom): "zoom \(zoom) is not a number; give a finite zoom"
        case let .invalidTile(z, x, y): "no tile \(z)/\(x)/\(y): z must be in 0...30 and x and y in 0..<2^z"
        case let .unknownCluster(id): "no cluster with id \(id) (ids come from a clusters query of the same list)"
        case let .pointOutOfRange(index, count): "store index \(index) is outside the list's 0..<\(count)"
        case let .tooManyPoints(count): "\(count) points are more than a cluster id can number (2^26)"
        case let .corruptData(reason): "stored cluster index is damaged: \(reason)"
        }
    }
}
