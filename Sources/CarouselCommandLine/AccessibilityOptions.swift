import ArgumentParser
import CarouselEngine
import MapSync
import MapSyncSimulation

/// `simulate`'s accessibility flags, laid over the script's `layout` keys
/// of the same meaning (`autoplayMs`, `autoplayEnd`, `reduceMotion`,
/// `statusTemplate`).
struct AccessibilityOptions: ParsableArguments {
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            """
            Autoplay: one page every MS ms of virtual time (the script's autoplayMs; 5000 is the usual interval, \
            above 0 and at most 86400000). It pauses for drags, taps, the script's pause events and reduced \
            motion; the script must end with an end event.
            """, valueName: "MS"))
    var autoplay: Double?

    @Option(help: "What autoplay does at the last card without --loop: rewind or stop (default rewind).")
    var autoplayEnd: AutoplayEnd?

    @Flag(
        help: """
            Reduced motion (UIAccessibility.isReduceMotionEnabled): commanded scrolls jump instead of animating, \
            cameras jump instead of flying, and autoplay starts paused until an {"autoplay": "start"} event.
            """)
    var reduceMotion = false

    @Option(
        help: ArgumentHelp(
            """
            The accessibility status spoken for each settled page, with {position}, {count}, {name}, {id}, \
            {hours} and {distance} (default "Store {position} of {count}, {name}"); adds status lines to the timeline.
            """, valueName: "TEXT"))
    var statusTemplate: String?

    /// `script` with the flags given laid over it.
    func applied(to script: ScrollScript) throws -> ScrollScript {
        var script = script
        if let autoplay {
            do {
                _ = try AutoplaySettings(intervalMs: autoplay)
            } catch {
                throw CLIError("--autoplay: \(error)")
            }
            script.autoplayMs = autoplay
        }
        if let autoplayEnd {
            guard script.autoplayMs != nil else {
                throw CLIError("--autoplay-end only applies to autoplay: give --autoplay MS too (or the script's autoplayMs)")
            }
            script.autoplayEnd = autoplayEnd
        }
        if reduceMotion { script.reduceMotion = true }
        if let statusTemplate {
            do {
                script.statusTemplate = try StatusTemplate(statusTemplate)
            } catch {
                throw CLIError("--status-template: \(error)")
            }
        }
        return script
    }
}

extension AutoplayEnd: ExpressibleByArgument {}
