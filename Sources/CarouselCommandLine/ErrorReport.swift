import ArgumentParser
import CarouselEngine
import CatalogServing
import Foundation
import MapSync
import MapSyncSimulation
import StoreCatalog

/// Any error a command run throws, as the one line `carousel` prints on
/// stderr and the exit status of its kind.
///
/// Library errors already speak in the user's terms; this decides their
/// kind and keeps platform internals ("NSCocoaErrorDomain error 256", a
/// decoder's enum case) out of the line.
package struct ErrorReport: Equatable {
    package var message: String
    package var status: ExitStatus

    package init(message: String, status: ExitStatus) {
        self.message = message
        self.status = status
    }

    /// What `error`, thrown while a command ran, says to the user.
    init(_ error: any Error) {
        if let report = Carousel.network?.report(error) {
            self = report
            return
        }
        switch error {
        case let error as CLIError:
            self.init(message: error.description, status: error.status)
        case let error as ValidationError:
            self.init(message: error.message, status: .usage)
        case let error as CatalogError:
            self.init(catalog: error)
        case let error as ImportFileError:
            // A file the reader could not open or read is an I/O failure;
            // anything else it says is about the file's content.
            let io = error.reason.hasPrefix("cannot open") || error.reason.hasPrefix("cannot read")
            self.init(message: LibraryErrorHints.fileMessage(error), status: io ? .io : .badData)
        case let error as ScrollScriptError:
            self.init(message: "the scroll script: \(error)", status: .badData)
        case let error as LayoutError:
            self.init(message: "\(error)", status: .usage)
        case let error as ScrollError:
            self.init(message: "\(error)", status: .usage)
        case let error as MapSyncError:
            self.init(message: "\(error)", status: .usage)
        case let error as CocoaError:
            self.init(message: Self.describe(error), status: Self.status(of: error))
        default:
            self.init(message: Self.oneLine("\(error)"), status: .io)
        }
        message = Self.oneLine(message)
    }

    /// The exit status of a catalog error's kind; the words (with this
    /// tool's flags) come from ``LibraryErrorHints``.
    private init(catalog error: CatalogError) {
        let message = LibraryErrorHints.catalogMessage(error)
        switch error {
        case .newerSchema, .notACatalog, .rowsRejected:
            self.init(message: message, status: .badData)
        case .listNotFound:
            self.init(message: message, status: .missingInput)
        case .listExists, .positionOutOfRange, .invalidArgument:
            self.init(message: message, status: .usage)
        case .cannotOpen, .sqlite, .database:
            self.init(message: message, status: .io)
        }
    }

    /// A file system error in words: what failed and on which file.
    static func describe(_ error: CocoaError) -> String {
        let path = error.filePath ?? error.url?.path
        let on = path.map { " \($0)" } ?? ""
        switch error.code {
        case .fileReadNoSuchFile, .fileNoSuchFile: return "no such file:\(on)"
        case .fileReadNoPermission, .fileWriteNoPermission: return "permission denied:\(on)"
        case .fileWriteOutOfSpace: return "the disk is full, writing\(on)"
        case .fileReadCorruptFile, .fileReadInapplicableStringEncoding: return "cannot read\(on): not UTF-8 text"
        default:
            let posix = (error.userInfo[NSUnderlyingErrorKey] as? NSError).flatMap { POSIXErrorCode(rawValue: Int32($0.code)) }
            return "cannot access\(on)" + (posix.map { ": \(String(cString: strerror($0.rawValue)))" } ?? "")
        }
    }

    private static func status(of error: CocoaError) -> ExitStatus {
        switch error.code {
        case .fileReadNoSuchFile, .fileNoSuchFile: .missingInput
        case .fileReadCorruptFile, .fileReadInapplicableStringEncoding: .badData
        default: .io
        }
    }

    /// `text` on one line: line breaks become "; ".
    static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }.joined(separator: "; ")
    }
}
