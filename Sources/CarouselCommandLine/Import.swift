import ArgumentParser
import CarouselJSON
import CatalogServing
import Foundation
import StoreCatalog

extension Carousel {
    /// `carousel import FILE --list NAME`: a store list into the catalog.
    struct Import: AsyncParsableCommand, ParsableCommandWithCatalog {
        static let configuration = CommandConfiguration.subcommand(
            commandName: "import",
            abstract: "Import a store list.",
            discussion: """
                Formats: csv, tsv, json (an array of objects), jsonl, geojson (Point features), \
                chosen by the file's extension or --format. Every row is checked first: unless \
                --skip-invalid is given, one bad row (or an id repeated in the file) imports \
                nothing; more than --max-issues bad rows stop the import, which then imports \
                nothing. Ids are unique within a list: another list's stores, same ids \
                included, are never changed. A row is at most --max-row-bytes long.

                Attribute values keep their types. JSON, JSON Lines and GeoJSON values \
                stay as written: strings, numbers with all their digits, booleans, null, \
                arrays and objects. A CSV or TSV column is typed over the whole column: \
                integer or number if every value is a JSON number literal (02134 or 7A \
                anywhere keeps the column text), boolean if every value is true or false, \
                else text; an empty cell is no value. --column-type NAME=TYPE forces a \
                type (integer, number, boolean, text); a value that does not fit is a bad \
                row. An opening_hours (hours, 영업시간) value that does not parse, or a \
                timezone that is not a known IANA zone, is a bad row too.
                """
        )

        enum Order: String, ExpressibleByArgument, CaseIterable {
            case file, name, distance
        }

        /// How many issues the human output lists before "… and N more".
        static let listedIssues = 20

        @OptionGroup var database: DatabaseOptions

        @Argument(help: "The file to import.")
        var file: String

        @Option(help: "The name of the list to create (or replace).")
        var list: String

        @Option(
            help: ArgumentHelp(
                "The file's format, when its extension does not say.",
                valueName: ImportFormat.allCases.map(\.rawValue).joined(separator: "|")))
        var format: String?

        @Flag(help: "Replace the list if it exists, atomically.")
        var replace = false

        @Flag(help: "Import the valid rows and report the others, instead of importing nothing.")
        var skipInvalid = false

        @Option(help: "The carousel order: as in the file, by name, or by distance from --from.")
        var order: Order = .file

        @Option(
            parsing: .unconditional,
            help: ArgumentHelp("The point --order distance measures from.", valueName: "lat,lng"),
            transform: CoordinateArgument.parse)
        var from: Coordinate?

        @Option(
            help: ArgumentHelp(
                "Build each store's name from columns, e.g. \"{상호명} {지점명}\" (any column names; {{ and }} for braces).",
                valueName: "template"))
        var nameFormat: String?

        @Option(
            name: .customLong("column-type"),
            help: ArgumentHelp(
                "Force an attribute column's type: integer, number, boolean or text (repeatable).",
                valueName: "name=type"))
        var columnTypes: [String] = []

        @Option(
            name: .customLong("timezone"),
            help: ArgumentHelp(
                "The list's time zone (IANA, e.g. Asia/Seoul): search --open-at reads the hours of stores without a timezone column on its clock.",
                valueName: "zone"))
        var timeZone: String?

        @Option(help: "How many issues the report lists; past this many bad rows the import stops and imports nothing.")
        var maxIssues = ImportOptions.defaultIssueLimit

        @Option(help: "The longest row, in bytes (default 1 MiB).")
        var maxRowBytes = 1 << 20

        @Flag(
            help: """
                Print JSON: {"list", "imported", "rejected", "errors": [{"line", "column", "reason"}], \
                "errorCount", "errorCounts", "stoppedEarly", "columnTypes": {header: type}}.
                """)
        var json = false

        func validate() throws {
            _ = try importFormat()
            _ = try DistanceOrigin.check(from, required: order == .distance, flag: "--order distance")
            guard !list.allSatisfy(\.isWhitespace) else { throw ValidationError("--list needs a name") }
            guard (1...ImportOptions.maxIssueLimit).contains(maxIssues) else {
                throw ValidationError("--max-issues must be 1 to \(ImportOptions.maxIssueLimit) (got \(maxIssues))")
            }
            // 1 GiB: a row is held whole, several times over, while it is read.
            guard (1...(1 << 30)).contains(maxRowBytes) else {
                throw ValidationError("--max-row-bytes must be 1 to \(1 << 30) (got \(maxRowBytes))")
            }
            _ = try parsedNameFormat()
            _ = try parsedColumnTypes()
            if let timeZone, ScheduleColumns.zone(named: timeZone) == nil {
                throw ValidationError("--timezone: \(ScheduleColumns.unknownZone(timeZone))")
            }
        }

        /// `--column-type NAME=TYPE`…, each name once.
        private func parsedColumnTypes() throws -> [String: AttributeType] {
            var types: [String: AttributeType] = [:]
            var folded = Set<String>()
            for argument in columnTypes {
                guard let equals = argument.firstIndex(of: "="), equals != argument.startIndex else {
                    throw ValidationError("--column-type needs NAME=TYPE, e.g. zip=text (got '\(argument)')")
                }
                let name = String(argument[..<equals])
                let typeName = String(argument[argument.index(after: equals)...])
                guard let type = AttributeType(rawValue: typeName.lowercased()) else {
                    let known = AttributeType.allCases.map(\.rawValue).joined(separator: ", ")
                    throw ValidationError("--column-type \(name): unknown type '\(typeName)'; use one of \(known)")
                }
                guard folded.insert(name.lowercased()).inserted else {
                    throw ValidationError("--column-type gives '\(name)' a type twice")
                }
                types[name] = type
            }
            return types
        }

        private func importFormat() throws -> ImportFormat {
            if let format {
                guard let known = ImportFormat(rawValue: format.lowercased()) else {
                    throw ValidationError("unknown --format '\(format)'; use one of \(Self.formatNames)")
                }
                return known
            }
            guard let inferred = ImportFormat(path: file) else {
                throw ValidationError("cannot tell the format of '\(file)' from its extension; pass --format \(Self.formatNames)")
            }
            return inferred
        }

        private func parsedNameFormat() throws -> NameFormat? {
            guard let nameFormat else { return nil }
            do {
                return try NameFormat(nameFormat)
            } catch {
                throw ValidationError("--name-format: \(error.description.replacingOccurrences(of: "name format ", with: ""))")
            }
        }

        private static var formatNames: String { ImportFormat.allCases.map(\.rawValue).joined(separator: ", ") }

        func run() async throws {
            let url = URL(fileURLWithPath: file)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
                throw CLIError("no such file: \(file)", status: .missingInput)
            }
            guard !isDirectory.boolValue else { throw CLIError("\(file) is a folder, not a store file") }
            guard FileManager.default.isReadableFile(atPath: url.path) else {
                throw CLIError("cannot read \(file): permission denied", status: .io)
            }
            let order: ImportOrder =
                switch self.order {
                case .file: .file
                case .name: .name
                case .distance: .distance(from: try DistanceOrigin.check(from, required: true, flag: "--order distance")!)
                }
            // The file first: a bad file must not create a database.
            var reader = try makeStoreRowReader(for: url, format: importFormat(), maxRowBytes: maxRowBytes)
            if let nameFormat = try parsedNameFormat() {
                reader = NameFormattingReader(reader, format: nameFormat, path: file)
            }
            let catalog = try await database.openEngine(access: .readWrite)
            do {
                let report = try await catalog.importList(
                    named: list, from: reader,
                    options: ImportOptions(
                        skipInvalid: skipInvalid, replace: replace, order: order, issueLimit: maxIssues,
                        columnTypes: parsedColumnTypes(), timeZone: timeZone))
                print(json ? Self.json(report) : Self.summary(report, imported: true))
            } catch let CatalogError.rowsRejected(report) {
                print(json ? Self.json(report) : Self.summary(report, imported: false))
                throw CLIError(LibraryErrorHints.catalogMessage(.rowsRejected(report)), status: .badData)
            }
        }

        /// The `--json` document (CarouselJSON, shared with the server).
        static func json(_ report: ImportReport) -> String {
            CatalogJSON.importReport(report)
        }

        /// The human summary: counts, then the first issues.
        static func summary(_ report: ImportReport, imported: Bool) -> String {
            let rows = "\(report.rejected) row\(report.rejected == 1 ? "" : "s")"
            var lines = [
                imported
                    ? "Imported \(report.imported) store\(report.imported == 1 ? "" : "s") into '\(report.list)'"
                        + (report.rejected > 0 ? "; rejected \(rows):" : ".")
                    : "Nothing imported into '\(report.list)'; \(rows) to fix:"
            ]
            lines += report.issues.prefix(listedIssues).map { "  \($0)" }
            if report.issueCount > listedIssues {
                let kinds = report.issueCountsByKind.sorted { ($1.value, $0.key) < ($0.value, $1.key) }
                    .map { "\($0.value) \($0.key)" }.joined(separator: ", ")
                lines.append("  … and \(report.issueCount - listedIssues) more (\(report.issueCount) in all: \(kinds))")
            }
            if report.stoppedEarly {
                lines.append("  Too many errors: stopped reading after \(report.rejected) rejected rows.")
            }
            return lines.map(\.terminalEscaped).joined(separator: "\n")
        }
    }
}
