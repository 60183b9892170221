import Synchronization

/// One output of the focus pipeline: at what virtual time, which list
/// position, which store.
struct FocusEmission: Hashable, Sendable, CustomStringConvertible {
    var time: Double
    var index: Int
    var storeID: String

    var description: String { "t=\(time) ms index \(index) store \(storeID)" }

    /// Throws unless both pipelines emitted exactly the same sequence: a
    /// speed ratio between pipelines that disagree would mean nothing.
    static func requireIdentical(ours: [FocusEmission], peer: [FocusEmission], peerName: String) throws {
        guard ours != peer else { return }
        let first = zip(ours, peer).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(ours.count, peer.count)
        func at(_ emissions: [FocusEmission]) -> String {
            first < emissions.count ? emissions[first].description : "nothing (ended)"
        }
        throw BenchError("""
            the pipelines disagree: ours emitted \(ours.count) values, \(peerName) \(peer.count); \
            first difference at emission #\(first): ours \(at(ours)), \(peerName) \(at(peer))
            """)
    }
}

/// Collects a pipeline's emissions. The lock is never contended (one
/// thread drives the virtual clock); it only makes the recorder `Sendable`
/// for our observable's `@Sendable` subscriber.
final class EmissionRecorder: Sendable {
    private let storage = Mutex<[FocusEmission]>([])

    func record(_ emission: FocusEmission) {
        storage.withLock { $0.append(emission) }
    }

    var emissions: [FocusEmission] {
        storage.withLock { $0 }
    }
}
