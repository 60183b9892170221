#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The page faults this process has taken so far, minor and major, from
/// `getrusage`: how the scale benchmark shows that a lookup's extra cost at
/// 10⁷ stores is the kernel mapping pages of the file, not the query.
///
/// A minor fault maps a page already in the OS page cache; on the 2-core VM
/// the figures come from, one costs about 5 µs (a C loop touching random
/// pages of a freshly written 2.2 GB file), against about 2 µs for a
/// `pread` of the same page.
enum PageFaults {
    static func count() -> Int {
        var usage = rusage()
        #if canImport(Glibc)
        getrusage(RUSAGE_SELF.rawValue, &usage)
        #else
        getrusage(RUSAGE_SELF, &usage)
        #endif
        return usage.ru_minflt + usage.ru_majflt
    }
}
