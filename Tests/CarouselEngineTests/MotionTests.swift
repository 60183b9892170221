import CarouselEngine
import Testing

@Suite("Motion curves")
struct MotionTests {
    @Test func decelerationFollowsTheExponentialAndLandsExactly() {
        let motion = Motion.decelerate(from: 100, to: 400, rate: .fast, at: 1000)
        #expect(motion.offset(at: 1000) == 100)
        // offset(t) = x + (T − x)(1 − dᵗ): after 50 ms, 1 − 0.99⁵⁰ of the way.
        var kept = 1.0
        for _ in 0..<50 { kept *= 0.99 }
        #expect(isClose(motion.offset(at: 1050), 100 + 300 * (1 - kept), within: 1e-9))
        // Within 0.5 pt after ln(0.5 / 300) / ln(0.99) ≈ 636.5 ms; exactly T from then on.
        #expect(motion.endTime > 1636 && motion.endTime < 1637)
        #expect(abs(motion.offset(at: motion.endTime - 0.01) - 400) > 0.49)
        #expect(motion.offset(at: motion.endTime) == 400)
        #expect(motion.offset(at: 99_999) == 400)
    }

    @Test func decelerationWithinHalfAPointIsAlreadyOver() {
        let motion = Motion.decelerate(from: 100, to: 100.4, rate: .normal, at: 0)
        #expect(motion.endTime == 0 && motion.offset(at: 0) == 100.4)
    }

    @Test func animationEasesInAndOutOverItsDuration() {
        let motion = Motion.animate(from: 0, to: 300, duration: 300, at: 0)
        #expect(motion.endTime == 300)
        #expect(motion.offset(at: 0) == 0 && motion.offset(at: 300) == 300)
        #expect(isClose(motion.offset(at: 150), 150, within: 1e-6), "the curve is symmetric")
        // Slow at both ends: the first and last 10 % of the time cover far less than 10 % of the way.
        #expect(motion.offset(at: 30) < 10)
        #expect(motion.offset(at: 270) > 290)
        // (0.42, 0, 0.58, 1) at x = 0.25 is about 0.1291 (Core Animation's easeInEaseOut).
        #expect(isClose(Motion.animate(from: 0, to: 1, duration: 1, at: 0).offset(at: 0.25), 0.1291, within: 5e-4))
        let samples = stride(from: 0.0, through: 300, by: 5).map(motion.offset(at:))
        #expect(zip(samples, samples.dropFirst()).allSatisfy { $0 <= $1 })
    }

    @Test func animationWithNowhereToGoTakesNoTime() {
        #expect(Motion.animate(from: 5, to: 5, duration: 300, at: 10).endTime == 10)
    }
}
