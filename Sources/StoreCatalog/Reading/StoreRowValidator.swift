import Foundation
import OpeningHours
import TextInput

/// Turns the raw fields of one row into a `Store`, or into every problem of
/// the row: one issue per bad field, so a user fixes a row once.
package enum StoreRowValidator {
    /// Validates `row` read through `layout`.
    ///
    /// - Parameters:
    ///   - knownIssues: problems the reader already found in the row (a
    ///     GeoJSON geometry that is not a Point…); they come first.
    ///   - checksCoordinates: false when the reader has reported the
    ///     coordinates itself in `knownIssues` (which must then be non-empty).
    ///   - kinds: for a JSON row, what each value was (`JSONTokenizer`'s
    ///     kinds, by column; columns past them are text): attributes keep
    ///     those types, and strings are kept as they are, empty ones too.
    ///     Nil for CSV and TSV, whose cells are text (trimmed, an empty one
    ///     is no value) until the import types their columns.
    package static func validate(
        _ row: RawFields,
        layout: ColumnLayout,
        knownIssues: [ImportIssue] = [],
        checksCoordinates: Bool = true,
        kinds: [JSONTokenizer.ValueKind]? = nil
    ) -> ImportRow {
        precondition(checksCoordinates || !knownIssues.isEmpty, "unchecked coordinates need a reported issue")
        return row.bytes.withUnsafeBufferPointer { bytes in
            // Local functions rather than a helper struct: a struct holding
            // `row` and `layout` would retain and release their five arrays
            // on every row, measured at a tenth of a CSV import.
            var issues = knownIssues

            func report(_ column: Int?, _ reason: String) {
                issues.append(ImportIssue(line: row.line, column: column.map { layout.headers[$0] }, reason: reason))
            }

            func trimmed(_ column: Int) -> UnsafeBufferPointer<UInt8> {
                UnsafeBufferPointer(rebasing: bytes[RawFields.trim(row.range(of: column), in: bytes)])
            }

            /// The trimmed value of `column`; nil (and an issue) when it is
            /// not valid UTF-8.
            func text(_ column: Int) -> String? {
                guard let text = UTF8Text.string(trimmed(column)) else {
                    report(column, "invalid UTF-8: save the file as UTF-8")
                    return nil
                }
                return text
            }

            /// The column feeding a required field, or nil and an issue.
            func requiredColumn(_ field: StoreField) -> Int? {
                guard let column = layout.column(of: field) else {
                    report(nil, "no \(field.label) (looked for \(field.aliasList))")
                    return nil
                }
                return column
            }

            /// `value`, or nil and an issue when it holds a NUL (U+0000):
            /// C cuts text short there, and PostgreSQL's text and jsonb
            /// cannot store it ("the character with code zero cannot be
            /// stored", https://www.postgresql.org/docs/15/datatype-character.html),
            /// so both catalogs refuse it here, with the row's line.
            func withoutNUL(_ column: Int, _ value: String) -> String? {
                guard value.utf8.contains(0) else { return value }
                report(column, Self.nulReason)
                return nil
            }

            func requiredText(_ field: StoreField) -> String? {
                guard let column = requiredColumn(field), let value = text(column) else { return nil }
                guard !value.isEmpty else {
                    report(column, "\(field.label) is empty")
                    return nil
                }
                // The id's own check names a NUL with the other invisible characters.
                return field == .id ? value : withoutNUL(column, value)
            }

            func optionalText(_ field: StoreField) -> String? {
                guard let column = layout.column(of: field), let value = text(column), !value.isEmpty else { return nil }
                return withoutNUL(column, value)
            }

            /// A finite decimal number within ±`limit` degrees.
            func coordinate(_ field: StoreField, limit: Double) -> Double? {
                guard let column = requiredColumn(field) else { return nil }
                let text = trimmed(column)
                guard !text.isEmpty else {
                    report(column, "\(field.label) is empty")
                    return nil
                }
                let value = DecimalNumber.parse(text)
                guard let value, value.isFinite else {
                    // NaN and infinities get their own words: `Double("nan")`
                    // parses, so users are surprised to see them refused.
                    let isNonFinite = value != nil || DecimalNumber.spellsNonFinite(String(decoding: text, as: UTF8.self))
                    report(column, "\(isNonFinite ? "not a finite number" : "not a number"): \(quoted(text))")
                    return nil
                }
                guard (-limit...limit).contains(value) else {
                    report(column, "\(field.label) out of range -\(Int(limit))...\(Int(limit)): \(quoted(text))")
                    return nil
                }
                return value
            }

            var id = requiredText(.id)
            if let value = id, let problem = NameCharacters.problem(in: value) {
                // An id is looked up by what a person types or a URL carries.
                report(layout.column(of: .id), "the id holds \(problem)")
                id = nil
            }
            let name = requiredText(.name)
            // As the visibleItemsInvalidationHandler article: latitude = store.y, longitude = store.x; WGS 84 ranges.
            let latitude = checksCoordinates ? coordinate(.latitude, limit: 90) : nil
            let longitude = checksCoordinates ? coordinate(.longitude, limit: 180) : nil
            let address = optionalText(.address)
            let category = optionalText(.category)
            let phone = optionalText(.phone)

            var attributes = [String: AttributeValue](minimumCapacity: layout.attributeColumns.count)
            for column in layout.attributeColumns {
                let value: AttributeValue
                if let kinds, column < kinds.count {
                    let kind = kinds[column]
                    if kind == .string || kind == .number {
                        // A JSON string exactly as given (untrimmed, empty
                        // kept); a number with its digits.
                        guard let text = UTF8Text.string(UnsafeBufferPointer(rebasing: bytes[row.range(of: column)])) else {
                            report(column, "invalid UTF-8: save the file as UTF-8")
                            continue
                        }
                        value = kind == .string ? .string(text) : .number(AttributeValue.Number(checked: text))
                    } else if kind == .boolean {
                        value = .bool(row.range(of: column).count == 4)  // "true", else "false"
                    } else if kind == .null {
                        value = .null
                    } else {
                        // An object or array, captured as compact JSON text.
                        guard let parsed = AttributesJSON.value(utf8: UnsafeBufferPointer(rebasing: bytes[row.range(of: column)])) else {
                            report(column, "invalid UTF-8: save the file as UTF-8")
                            continue
                        }
                        value = parsed
                    }
                } else {
                    // Empty values are omitted: an empty CSV cell is "no value".
                    guard let text = text(column), !text.isEmpty else { continue }
                    value = .string(text)
                }
                let header = layout.headers[column]
                if value.holdsNUL {
                    report(column, Self.nulReason)
                    continue
                }
                if let problem = ScheduleColumns.problem(in: layout.scheduleColumns[column], value: value) {
                    report(column, problem)
                    continue
                }
                attributes[header] = value
            }

            guard issues.isEmpty, let id, let name, let latitude, let longitude else {
                return .invalid(issues)
            }
            let store = Store(
                id: id, name: name, latitude: latitude, longitude: longitude,
                address: address, category: category, phone: phone, attributes: attributes
            )
            return .valid(store, line: row.line)
        }
    }

    /// The issue of a value holding a NUL.
    static let nulReason = "holds U+0000 (NUL), which no text value may hold"

    /// `'text'` for a message, cut short when long.
    private static func quoted(_ text: UnsafeBufferPointer<UInt8>) -> String {
        let shown = String(decoding: text, as: UTF8.self)
        return shown.count > 40 ? "'\(shown.prefix(40))…'" : "'\(shown)'"
    }
}

extension AttributeValue {
    /// Whether a string anywhere in the value, or a member's name, holds
    /// a NUL (U+0000).
    package var holdsNUL: Bool {
        switch self {
        case .string(let text): text.utf8.contains(0)
        case .number, .bool, .null: false
        case .array(let values): values.contains { $0.holdsNUL }
        case .object(let members): members.contains { $0.key.utf8.contains(0) || $0.value.holdsNUL }
        }
    }
}
