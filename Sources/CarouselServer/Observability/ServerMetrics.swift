import CoreMetrics
import Foundation
import Metrics
import Prometheus
import Synchronization

/// The server's metrics, recorded through swift-metrics into a Prometheus
/// registry of this server's own (not the process-wide factory, so that
/// two servers in one process — the tests — count apart), and written at
/// `GET /metrics` in the Prometheus text format.
///
/// Requests are labelled by route template (`/lists/{name}/stores`),
/// never by raw path, so the series stay as few as the routes × methods ×
/// statuses.
final class ServerMetrics: Sendable {
    let registry = PrometheusCollectorRegistry()
    private let factory: PrometheusMetricsFactory
    private let sessionsGauge: CoreMetrics.Gauge
    private let versionGauge: CoreMetrics.Gauge
    private let rssGauge: CoreMetrics.Gauge
    private let imports: CoreMetrics.Counter
    private let importedRows: CoreMetrics.Counter

    private struct RequestKey: Hashable {
        var route: String
        var method: String
        var status: Int
    }
    private let requestCounters = Mutex<[RequestKey: CoreMetrics.Counter]>([:])
    private let refusedConnections = Mutex<[String: CoreMetrics.Counter]>([:])
    private let durationTimers = Mutex<[String: CoreMetrics.Timer]>([:])

    init() {
        var factory = PrometheusMetricsFactory(registry: registry)
        // From 0.1 ms: a catalog read takes tens of microseconds.
        factory.durationHistogramBuckets["carousel_http_request_duration_seconds"] = [
            .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1), .microseconds(2_500),
            .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(100), .milliseconds(250), .seconds(1), .seconds(10),
        ].sorted()
        self.factory = factory
        sessionsGauge = CoreMetrics.Gauge(label: "carousel_live_sessions", dimensions: [], factory: factory)
        versionGauge = CoreMetrics.Gauge(label: "carousel_catalog_data_version", dimensions: [], factory: factory)
        rssGauge = CoreMetrics.Gauge(label: "carousel_process_resident_memory_bytes", dimensions: [], factory: factory)
        imports = CoreMetrics.Counter(label: "carousel_imports_total", dimensions: [], factory: factory)
        importedRows = CoreMetrics.Counter(label: "carousel_imported_rows_total", dimensions: [], factory: factory)
    }

    /// One answered request.
    func record(route: String, method: String, status: Int, duration: Duration) {
        count(route: route, method: method, status: status)
        let timer = durationTimers.withLock { timers in
            if let timer = timers[route] { return timer }
            let timer = CoreMetrics.Timer(label: "carousel_http_request_duration_seconds", dimensions: [("route", route)], factory: factory)
            timers[route] = timer
            return timer
        }
        timer.recordNanoseconds(duration.nanoseconds)
    }

    /// One request in `carousel_http_requests_total`, without a duration
    /// (one refused before it was read: ``RefusalLog``).
    func count(route: String, method: String, status: Int) {
        let key = RequestKey(route: route, method: method, status: status)
        let counter = requestCounters.withLock { counters in
            if let counter = counters[key] { return counter }
            let counter = CoreMetrics.Counter(
                label: "carousel_http_requests_total",
                dimensions: [("route", route), ("method", method), ("status", String(status))], factory: factory)
            counters[key] = counter
            return counter
        }
        counter.increment()
    }

    /// One connection refused before its first request, by `reason`
    /// (`tls_handshake`): `carousel_connections_refused_total`.
    func countRefusedConnection(reason: String) {
        let counter = refusedConnections.withLock { counters in
            if let counter = counters[reason] { return counter }
            let counter = CoreMetrics.Counter(label: "carousel_connections_refused_total", dimensions: [("reason", reason)], factory: factory)
            counters[reason] = counter
            return counter
        }
        counter.increment()
    }

    /// One finished import of `rows` stores.
    func recordImport(rows: Int) {
        imports.increment()
        importedRows.increment(by: Int64(rows))
    }

    /// The text exposition, with the gauges read now.
    func exposition(liveSessions: Int, catalogVersion: Int64?) -> [UInt8] {
        sessionsGauge.record(liveSessions)
        if let catalogVersion { versionGauge.record(catalogVersion) }
        if let rss = Self.residentBytes() { rssGauge.record(rss) }
        return registry.emitToBuffer()
    }

    /// The process's resident set, from `/proc/self/statm` (proc(5): the
    /// second field, in pages); nil where there is none.
    static func residentBytes() -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        let (bytes, overflow) = pages.multipliedReportingOverflow(by: Int(sysconf(Int32(_SC_PAGESIZE))))
        return overflow ? nil : bytes
    }
}

extension Duration {
    /// Whole nanoseconds, saturating.
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? .max : whole + attoseconds / 1_000_000_000
    }
}
