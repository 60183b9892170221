#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A synthetic store list in CSV, as big as asked and the same for a seed:
/// stores of a dozen chains clustered around thirty real cities, each with
/// an id, a name, coordinates, an address, a category and a phone, and
/// optionally two attribute columns (`opening_hours`, `rating`).
///
/// Written as a stream, row after row through one 64 KiB buffer, so that
/// ten million rows take the memory of ten: the benchmarks generate their
/// 10⁷-store files with it, and tests small ones.
///
/// ```swift
/// try SyntheticStoreList(count: 1_000_000, seed: 42).write(toFile: "/tmp/stores.csv")
/// ```
///
/// Where stores fall: a city is picked in proportion to its population;
/// nine stores in ten lie around its centre with a spread of
/// 3 km × √(millions of people) in each direction, the tenth anywhere within
/// eight times that (suburbs and villages). Real store lists look like this:
/// dense cores, thin outskirts, nothing at sea.
public struct SyntheticStoreList: Sendable {
    /// How ids follow the file's order.
    public enum IDOrder: Sendable {
        /// `S000000001`, `S000000002`, … in file order, as open-data exports
        /// sorted by their key come.
        case ascending
        /// The same ids, each row's drawn by a fixed permutation of the row
        /// number (unique, in no order): a file sorted by something else.
        case scattered
    }

    /// The number of stores (data rows; the header comes on top).
    public let count: Int
    public let seed: UInt64
    /// Whether to add the `opening_hours` and `rating` columns, which the
    /// catalog keeps as each store's attributes.
    public let attributes: Bool
    public let idOrder: IDOrder

    /// The most stores a list can have: ids have nine digits.
    public static let maximumCount = 999_999_999

    /// A list of `count` stores drawn from `seed`; throws for a count below
    /// zero or above ``maximumCount``.
    public init(count: Int, seed: UInt64, attributes: Bool = true, idOrder: IDOrder = .ascending) throws(SyntheticStoresError) {
        guard (0...Self.maximumCount).contains(count) else {
            throw SyntheticStoresError("a synthetic list holds 0 to \(Self.maximumCount) stores (asked for \(count))")
        }
        self.count = count
        self.seed = seed
        self.attributes = attributes
        self.idOrder = idOrder
    }

    /// The CSV's first line, without its newline.
    public var header: String {
        "id,name,latitude,longitude,address,category,phone" + (attributes ? ",opening_hours,rating" : "")
    }

    /// Writes the CSV (header, then one line per store, `\n`-terminated) to
    /// the file at `path`, replacing it.
    public func write(toFile path: String) throws(SyntheticStoresError) {
        guard let file = fopen(path, "wb") else {
            throw SyntheticStoresError("cannot write \(path): \(String(cString: strerror(errno)))")
        }
        var failure: SyntheticStoresError?
        write { chunk in
            if failure == nil, fwrite(chunk.baseAddress, 1, chunk.count, file) != chunk.count {
                failure = SyntheticStoresError("writing \(path) failed: \(String(cString: strerror(errno)))")
            }
        }
        if fclose(file) != 0, failure == nil {
            failure = SyntheticStoresError("writing \(path) failed: \(String(cString: strerror(errno)))")
        }
        if let failure { throw failure }
    }

    /// Hands the CSV to `sink` in chunks of up to 64 KiB, in order; a chunk
    /// is valid only during its call.
    public func write(_ sink: (UnsafeBufferPointer<UInt8>) -> Void) {
        withoutActuallyEscaping(sink) { sink in
            var output = CSVOutput(sink: sink)
            output.append(header)
            output.newline()
            var random = SplitMix64(seed: seed)
            let cities = WeightedCities(City.all)
            for row in 0..<count {
                appendRow(row, random: &random, cities: cities, to: &output)
            }
            output.flush()
        }
    }

    private func appendRow(_ row: Int, random: inout SplitMix64, cities: WeightedCities, to output: inout CSVOutput) {
        let city = cities.pick(&random)
        let chain = Chain.all[Int(random.next() % UInt64(Chain.all.count))]
        // Nine in ten near the centre, the tenth in the outskirts.
        let spreadKm = 3 * city.millions.squareRoot() * (random.unit() < 0.9 ? 1 : 8)
        let latitude = min(max(city.latitude + random.normal() * spreadKm / Self.kmPerDegree, -89.99999), 89.99999)
        var longitude = city.longitude + random.normal() * spreadKm / (Self.kmPerDegree * city.cosLatitude)
        if longitude > 180 { longitude -= 360 } else if longitude < -180 { longitude += 360 }

        output.append("S")
        output.appendDigits(id(ofRow: row), width: 9)
        output.comma()
        output.append(chain.name)
        output.append(" ")
        output.append(city.name)
        output.append(" ")
        output.appendDigits(1 + Int(random.next() % 400), width: 1)
        output.comma()
        output.appendFixed(latitude, decimals: 5)
        output.comma()
        output.appendFixed(longitude, decimals: 5)
        output.comma()
        // "12 Maple Road, Seoul": quoted, for the comma.
        output.append("\"")
        output.appendDigits(1 + Int(random.next() % 300), width: 1)
        output.append(" ")
        output.append(Self.streets[Int(random.next() % UInt64(Self.streets.count))])
        output.append(", ")
        output.append(city.name)
        output.append("\"")
        output.comma()
        output.append(chain.category)
        output.comma()
        // One store in five lists no phone: an empty field, a NULL.
        if random.next() % 5 != 0 {
            output.append("0")
            output.appendDigits(2 + Int(random.next() % 60), width: 1)
            output.append("-")
            output.appendDigits(Int(random.next() % 10_000), width: 4)
            output.append("-")
            output.appendDigits(Int(random.next() % 10_000), width: 4)
        }
        if attributes {
            output.comma()
            if random.next() % 4 != 0 { output.append(Self.hours[Int(random.next() % UInt64(Self.hours.count))]) }
            output.comma()
            if random.next() % 3 != 0 { output.appendFixed(1 + 4 * random.unit(), decimals: 1) }
        }
        output.newline()
    }

    /// The number in row `row`'s id, 1 ... 999,999,999.
    ///
    /// Scattered: `(row · 3¹⁸ + seed) mod 10⁹ `, a permutation of 0 ..< 10⁹
    /// (3¹⁸ shares no factor with 2⁹ · 5⁹), so ids never repeat; the
    /// number 0 maps to 10⁹ − 1, never used by a shorter list's ascending ids.
    private func id(ofRow row: Int) -> Int {
        switch idOrder {
        case .ascending:
            return row + 1
        case .scattered:
            let modulus = 1_000_000_000
            let value = (row * 387_420_489 + Int(seed % UInt64(modulus))) % modulus
            return value == 0 ? modulus - 1 : value
        }
    }

    /// Kilometres per degree of latitude (the mean Earth radius 6,371 km × π / 180).
    static let kmPerDegree = 111.195

    static let streets = [
        "Maple Road", "Harbor Street", "Station Avenue", "Market Lane", "Riverside Drive", "Hill Street",
        "Garden Road", "Bridge Street", "Park Avenue", "Temple Road", "Mill Lane", "Castle Street",
    ]

    static let hours = ["07:00-22:00", "08:00-20:00", "09:00-21:00", "10:00-22:00", "24/7", "11:00-23:00"]
}

/// A chain: the brand in a store's name, and its category.
private struct Chain {
    var name: String
    var category: String

    static let all = [
        Chain(name: "Daily Mart", category: "convenience"), Chain(name: "Bluebird Bakery", category: "bakery"),
        Chain(name: "Haneul Coffee", category: "cafe"), Chain(name: "Green Grocer", category: "grocery"),
        Chain(name: "Corner Books", category: "books"), Chain(name: "Sunrise Pharmacy", category: "pharmacy"),
        Chain(name: "Maru Noodles", category: "restaurant"), Chain(name: "Urban Florist", category: "florist"),
        Chain(name: "Pine Hardware", category: "hardware"), Chain(name: "Lotus Tea", category: "cafe"),
        Chain(name: "Metro Optics", category: "optician"), Chain(name: "Harbor Fish", category: "market"),
    ]
}

/// The cities with the running total of their populations, to pick one in
/// proportion to its people with one uniform draw.
private struct WeightedCities {
    struct Entry {
        var name: String
        var latitude: Double
        var longitude: Double
        var millions: Double
        /// cos(latitude): a degree of longitude is this many degrees of
        /// latitude long, there.
        var cosLatitude: Double
    }

    let entries: [Entry]
    let cumulative: [Double]

    init(_ cities: [City]) {
        entries = cities.map {
            Entry(
                name: $0.name, latitude: $0.latitude, longitude: $0.longitude, millions: $0.millions,
                cosLatitude: cos($0.latitude * .pi / 180))
        }
        var total = 0.0
        cumulative = cities.map {
            total += $0.millions; return total
        }
    }

    func pick(_ random: inout SplitMix64) -> Entry {
        let target = random.unit() * cumulative[cumulative.count - 1]
        return entries[cumulative.firstIndex { target < $0 } ?? entries.count - 1]
    }
}
