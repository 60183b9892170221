import CarouselCommandLine
import CatalogSync
import Foundation
import StoreCatalog

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension NetworkStack {
    /// `carousel sync`: a `CatalogReplica` of the server's list in `--db`,
    /// thin over the library; its report as one line.
    func sync(_ command: Carousel.Sync) throws {
        let path = try command.database.resolvedPathForSync()
        let server = URL(string: command.from)!
        let source = ChangeSource(server: server, list: command.list, token: command.resolvedToken)
        let started = ContinuousClock.now
        let report = try Blocking.wait {
            let catalog = try await Catalog.open(path: path)
            let replica = CatalogReplica(catalog: catalog, list: command.list, source: source)
            do {
                return try await replica.sync(pageSize: command.pageSize) { progress in
                    Carousel.Sync.showProgress(changes: progress.changes, bytes: progress.bytes)
                }
            } catch let error as SyncError {
                throw error
            } catch let error as CatalogError {
                throw error
            } catch {
                // URLSession's errors: say which server could not be reached.
                throw SyncError.unreachable("\(command.from): \(error.localizedDescription)")
            }
        }
        Carousel.Sync.endProgress()
        for reason in report.resyncs { FileHandle.standardError.write(Data("note: \(reason)\n".utf8)) }
        let seconds = Double((ContinuousClock.now - started) / .milliseconds(1)) / 1000
        print(
            Carousel.Sync.summary(
                list: command.list, from: command.from, added: report.added, changed: report.changed, removed: report.removed,
                bytes: report.bytes, pages: report.pages, seconds: seconds))
    }
}
