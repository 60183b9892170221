import Dispatch

/// A scheduler on the wall clock that runs its actions on a dispatch queue:
/// for apps (the main queue, like RxSwift's `MainScheduler`) and real-time tests.
///
/// `now` counts milliseconds of monotonic uptime since the scheduler was
/// created. Actions run on `queue`; on a serial queue they never overlap.
public final class RealTimeScheduler: EventScheduler {
    /// The queue the actions run on.
    public let queue: DispatchQueue
    /// Uptime (ns) at creation: the origin of `now`.
    private let origin: UInt64

    /// A scheduler running its actions on `queue`.
    public init(queue: DispatchQueue) {
        self.queue = queue
        origin = DispatchTime.now().uptimeNanoseconds
    }

    /// A scheduler on a new serial queue named `label`.
    public convenience init(label: String) {
        self.init(queue: DispatchQueue(label: label))
    }

    /// A scheduler on the main queue, for UI work.
    public static let main = RealTimeScheduler(queue: .main)

    public var now: Milliseconds {
        Double(DispatchTime.now().uptimeNanoseconds - origin) / 1_000_000
    }

    public func schedule(at time: Milliseconds, _ action: @escaping @Sendable () -> Void) -> any Disposable {
        precondition(time.isFinite, "RealTimeScheduler: cannot schedule an action at \(time) ms")
        let pending = PendingAction(action)
        let offset = UInt64(Swift.max(0, time) * 1_000_000)
        queue.asyncAfter(deadline: DispatchTime(uptimeNanoseconds: origin + offset)) {
            pending.run()
        }
        return pending
    }
}
