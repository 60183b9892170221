/// Time in this module: milliseconds as a `Double`, for both instants and durations.
///
/// The simulator's frames fall every 1000/60 ms and its timeline prints `t`
/// in milliseconds, so one unit everywhere avoids conversions (and their
/// rounding) between the engine, the schedulers and the outputs. An instant
/// is measured from the scheduler's own origin (`0` for a fresh
/// `VirtualTimeScheduler`, its creation for a `RealTimeScheduler`).
public typealias Milliseconds = Double
