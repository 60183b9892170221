import StoreCatalog

/// The JSON of a page of changes. Numbers are exact (the shortest decimal
/// that reads back to the same double), and a store's attributes travel
/// as the JSON text the catalog stores (`attributesJSON`), so a replica
/// writes back the very bytes the server holds and both export the same
/// file.
package enum ChangeJSON {
    package static func page(_ page: ChangePage) -> [UInt8] {
        var bytes = Array(#"{"changes":["#.utf8)
        bytes.reserveCapacity(page.changes.count * 160)
        for (index, change) in page.changes.enumerated() {
            if index > 0 { bytes.append(0x2C) }
            bytes += #"{"seq":"#.utf8
            bytes += String(change.sequence).utf8
            bytes += #","id":"#.utf8
            AttributesJSON.appendQuoted(change.id, to: &bytes)
            guard let rank = change.rank, let store = change.store else {
                bytes += #","deleted":true}"#.utf8
                continue
            }
            bytes += #","rank":"#.utf8
            bytes += String(rank).utf8
            bytes += #","store":{"name":"#.utf8
            AttributesJSON.appendQuoted(store.name, to: &bytes)
            bytes += #","latitude":"#.utf8
            bytes += JSONNumber.exact(store.latitude).utf8
            bytes += #","longitude":"#.utf8
            bytes += JSONNumber.exact(store.longitude).utf8
            for (key, value) in [("address", store.address), ("category", store.category), ("phone", store.phone), ("attributesJSON", store.attributes)] {
                guard let value else { continue }
                bytes += #","\#(key)":"#.utf8
                AttributesJSON.appendQuoted(value, to: &bytes)
            }
            bytes += "}}".utf8
        }
        bytes += #"],"next":"#.utf8
        AttributesJSON.appendQuoted(page.next, to: &bytes)
        bytes += #","upToDate":\#(page.upToDate),"checksum":"#.utf8
        if let checksum = page.checksum { AttributesJSON.appendQuoted(checksum, to: &bytes) } else { bytes += "null".utf8 }
        bytes += #","exists":\#(page.exists)}"#.utf8
        return bytes
    }
}
