import CarouselCommandLine
import CarouselServer
import CatalogServing
import CatalogSync
import Catalogs
import PostgresCatalog
import StoreCatalog

/// The network features `carousel-net` links: PostgreSQL catalogs through
/// `Catalogs`, and the server (``serve(_:)``, in Serving.swift).
struct NetworkStack: NetworkFeatures {
    func openPostgres(url: String, access: Catalog.Access, maxConnections: Int?) async throws -> any ServingCatalog {
        try await CatalogLocation(url).open(access: access, maxConnections: maxConnections ?? PostgresCatalog.standardMaxConnections)
    }

    func describe(url: String) throws -> String {
        try CatalogLocation(url).description
    }

    /// A URL that does not parse is a wrong command line; anything else
    /// the database said or did is a read or write failure. A TLS key
    /// that is not the certificate's is a wrong command line too (64, as
    /// when the server refused the pair as it started); a certificate or
    /// key file that does not read, a failed read (74).
    func report(_ error: any Error) -> ErrorReport? {
        if let error = error as? TLSFileError {
            return ErrorReport(message: error.description, status: error.kind == .keyMismatch ? .usage : .io)
        }
        if let error = error as? SyncError {
            // A server that is not there, or answers what a sync cannot
            // use: a read failure (74); its refusal of the list: missing input.
            if case .server(status: 404, _) = error { return ErrorReport(message: error.description, status: .missingInput) }
            return ErrorReport(message: error.description, status: .io)
        }
        guard let error = error as? PostgresCatalogError else { return nil }
        if case .invalidURL = error { return ErrorReport(message: error.description, status: .usage) }
        return ErrorReport(message: error.description, status: .io)
    }
}
