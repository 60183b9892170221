// The C math library, for the two transcendental functions the physics needs
// (the standard library has no `pow` or `log`). Importing libm keeps the
// engine free of Foundation.
#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(ucrt)
    import ucrt
#endif

/// `base` raised to `exponent`.
@inline(__always)
func power(_ base: Double, _ exponent: Double) -> Double {
    pow(base, exponent)
}

/// The natural logarithm of `value`.
@inline(__always)
func naturalLog(_ value: Double) -> Double {
    log(value)
}
