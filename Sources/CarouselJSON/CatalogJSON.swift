import StoreCatalog

/// The catalog's other documents: the lists and an import's report, as
/// `lists --json` and `import --json` print them.
package enum CatalogJSON {
    /// `[{"name","count"}]`.
    package static func lists(_ lists: [ListSummary]) -> String {
        "[" + lists.map { "{\"name\":\(StoreJSON.quoted($0.name)),\"count\":\($0.count)}" }.joined(separator: ",") + "]"
    }

    /// `{"list","imported","rejected","errors":[{"line","column","reason"}],
    /// "errorCount","errorCounts":{kind: n},"stoppedEarly","columnTypes":{header: type}}`;
    /// `column` is null for a whole-row issue. `errors` lists the first
    /// issues only (the report's bound), the counts cover them all: the
    /// document's size does not grow with the input. `columnTypes` is the
    /// type each CSV or TSV attribute column got (`integer`, `number`,
    /// `boolean`, `text`), empty for JSON, whose values keep their own.
    package static func importReport(_ report: ImportReport) -> String {
        let errors = report.issues.map { issue in
            "{\"line\":\(issue.line),\"column\":\(issue.column.map(StoreJSON.quoted) ?? "null"),"
                + "\"reason\":\(StoreJSON.quoted(issue.reason))}"
        }
        let counts: [String] = report.issueCountsByKind.sorted { $0.key < $1.key }
            .map { "\(StoreJSON.quoted($0.key)):\($0.value)" }
        var json = "{\"list\":\(StoreJSON.quoted(report.list)),\"imported\":\(report.imported),"
        json += "\"rejected\":\(report.rejected),\"errors\":[\(errors.joined(separator: ","))],"
        json += "\"errorCount\":\(report.issueCount),\"errorCounts\":{\(counts.joined(separator: ","))},"
        let types: [String] = report.columnTypes.sorted { $0.key < $1.key }
            .map { "\(StoreJSON.quoted($0.key)):\(StoreJSON.quoted($0.value.rawValue))" }
        json += "\"stoppedEarly\":\(report.stoppedEarly),\"columnTypes\":{\(types.joined(separator: ","))}}"
        return json
    }
}
