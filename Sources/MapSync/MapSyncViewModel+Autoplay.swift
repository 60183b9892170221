import CarouselEngine
import Observables

/// Autoplay: the carousel turns one page every interval on the view
/// model's scheduler (a `VirtualTimeScheduler` in tests and the simulator,
/// so an hour of turns takes no wall-clock time), and pauses for every
/// ``AutoplayPauseReason``.
///
/// The rules, from the W3C APG carousel example and WCAG 2.2 success
/// criterion 2.2.2 (Pause, Stop, Hide):
/// - it turns only while no reason holds; any reason pauses it;
/// - it resumes when the last reason ends, except the user's stop (and the
///   `end` and `reducedMotion` stops), which only the user's ``play()`` ends;
/// - each time it resumes the interval starts again from zero (APG: rotation
///   restarts when hover or focus leaves);
/// - a turn is one page forward: in loop mode past the last store to the
///   first one's twin (the loop jump follows), else at the last store back
///   to the first (`rewind`) or a stop (`stop`).
extension MapSyncViewModel {
    /// Turns autoplay on with `settings`, or off with nil. It plays at once
    /// unless a reason holds (reduced motion among them: then it starts
    /// paused); the first turn comes one interval later. Sends the state.
    public func setAutoplay(_ settings: AutoplaySettings?) {
        updateAutoplay(restartingTimer: true) { $0.settings = settings }
    }

    /// Autoplay's settings; nil while it is off.
    public var autoplaySettings: AutoplaySettings? { state.withLock { $0.autoplay.settings } }

    /// Autoplay's state now.
    public var autoplayState: AutoplayState { state.withLock { $0.autoplay.state } }

    /// The user's play (the APG example's rotation button): ends the user's
    /// stop, the `end` stop and the reduced-motion pause. Other reasons
    /// that still hold keep it paused until they end.
    public func play() {
        updateAutoplay { $0.play() }
    }

    /// The user's stop: it holds until ``play()``, whatever else ends.
    public func stop() {
        updateAutoplay { $0.reasons.insert(.userStop) }
    }

    /// An outside reason to pause begins (`on`) or ends: VoiceOver started
    /// or stopped, focus entered or left the carousel, a pointer hovers,
    /// the app went to the background, the carousel scrolled off screen, a
    /// map gesture. Autoplay resumes, from a full interval, when the last
    /// reason ends.
    ///
    /// - Throws: ``AutoplayError/notExternal(_:)`` for a reason the view
    ///   model follows itself (`drag`, `markerTap`, `reducedMotion`,
    ///   `userStop`, `end`): use ``beginDragging()``, ``didSettle()``,
    ///   ``setReduceMotion(_:)``, ``play()`` and ``stop()``.
    public func setPause(_ reason: AutoplayPauseReason, _ on: Bool) throws(AutoplayError) {
        guard AutoplayPauseReason.external.contains(reason) else { throw .notExternal(reason) }
        updateAutoplay { gate in
            if on { gate.reasons.insert(reason) } else { gate.reasons.remove(reason) }
        }
    }

    /// Changes autoplay's gate, then starts the timer from zero when it
    /// begins to play (or when `restartingTimer` and it plays), cancels it
    /// when it stops playing, and sends the state if it changed while
    /// autoplay is on.
    func updateAutoplay(restartingTimer: Bool = false, _ change: (inout AutoplayGate) -> Void) {
        let scheduler = scheduler
        let (before, after, old) = state.withLock { state -> (AutoplayGate, AutoplayGate, (any Disposable)?) in
            let before = state.autoplay
            change(&state.autoplay)
            let after = state.autoplay
            var old: (any Disposable)?
            if after.isPlaying, !before.isPlaying || restartingTimer, let settings = after.settings {
                old = state.autoplayTimer
                state.autoplayTimer = scheduleTurn(after: settings.intervalMs, on: scheduler)
            } else if !after.isPlaying {
                old = state.autoplayTimer
                state.autoplayTimer = nil
            }
            return (before, after, old)
        }
        old?.dispose()
        if before.settings != nil || after.settings != nil, before.state != after.state || before.settings != after.settings {
            outputs.autoplay.onNext(after.state)
        }
    }

    /// The next turn, `intervalMs` from now. The closure holds the view
    /// model weakly: a released view model's timer does nothing.
    private func scheduleTurn(after intervalMs: Milliseconds, on scheduler: AnyEventScheduler) -> any Disposable {
        scheduler.schedule(at: scheduler.now + intervalMs) { [weak self] in self?.turn() }
    }

    /// A turn falls due: the next page, then the next turn an interval later.
    private func turn() {
        let scheduler = scheduler
        enum Outcome {
            case scroll(ScrollCommand)
            case stopAtEnd
            case nothing
        }
        let outcome = state.withLock { state -> Outcome in
            guard state.autoplay.isPlaying, let settings = state.autoplay.settings else { return .nothing }
            state.autoplayTimer = scheduleTurn(after: settings.intervalMs, on: scheduler)
            guard let session = state.session, session.count > 0,
                let item = state.pagingItem(in: session.layout)
            else { return .nothing }
            let layout = session.layout
            var target: Int
            if let next = layout.accessibilityTarget(from: item, .next) {
                target = next
                if !(0..<layout.itemCount).contains(target) {
                    target = layout.nearestItem(showing: layout.dataIndex(ofItem: target), to: state.offset)
                }
            } else if settings.end == .rewind {
                target = layout.firstDataItem
            } else {
                return .stopAtEnd
            }
            state.commandedItem = target
            return .scroll(
                ScrollCommand(
                    index: target, dataIndex: layout.dataIndex(ofItem: target), targetOffset: layout.rest(target),
                    animated: !motion.reduceMotion))
        }
        switch outcome {
        case .scroll(let command): outputs.scroll.onNext(command)
        case .stopAtEnd: updateAutoplay { $0.reasons.insert(.end) }
        case .nothing: break
        }
    }
}
