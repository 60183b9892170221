import StoreCatalog

/// The catalog's other documents: the lists and an import's report, as
/// `lists --json` and `import --json` print them.
package enum CatalogJSON {
    /// `[{"name","count"}]`.
    package static func lists(_ lists: [ListSummary]) -> String {
        "[" + lists.map { "{\"name\":\(StoreJSON.quoted($0.name)),\"count\":\($0.count)}" }.joined(separator: ",") + "]"
    }

    /// `{"list","imported","rejected","errors":[{"line","column","reason"}]}`;
    /// `column` is null for a whole-row issue.
    package static func importReport(_ report: ImportReport) -> String {
        let errors = report.issues.map { issue in
            "{\"line\":\(issue.line),\"column\":\(issue.column.map(StoreJSON.quoted) ?? "null"),"
                + "\"reason\":\(StoreJSON.quoted(issue.reason))}"
        }
        return "{\"list\":\(StoreJSON.quoted(report.list)),\"imported\":\(report.imported),"
            + "\"rejected\":\(report.rejected),\"errors\":[\(errors.joined(separator: ","))]}"
    }
}
