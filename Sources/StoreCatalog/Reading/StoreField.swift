/// A named field of `Store` that an input column can feed, with the header
/// aliases that name it.
package enum StoreField: Int, CaseIterable, Sendable {
    case id, name, latitude, longitude, address, category, phone

    /// The header names that mean this field, matched case-insensitively;
    /// when several are present the first in this order wins and the others
    /// stay attributes.
    ///
    /// `x` is the longitude and `y` the latitude: the visibleItemsInvalidationHandler article moves the camera to
    /// `(store.y, store.x)` as (latitude, longitude). The Korean names are the
    /// headers of the public small-business store data (상가(상권)정보).
    package var aliases: [String] {
        switch self {
        case .id: ["id", "store_id", "storeId", "상가업소번호"]
        case .name: ["name", "title", "store_name", "상호명"]
        case .latitude: ["latitude", "lat", "y", "위도"]
        case .longitude: ["longitude", "lng", "lon", "long", "x", "경도"]
        case .address: ["address", "addr", "도로명주소", "지번주소"]
        case .category: ["category", "상권업종소분류명", "상권업종중분류명", "상권업종대분류명"]
        case .phone: ["phone", "tel", "telephone", "전화번호"]
        }
    }

    /// Whether every store must have it (`Store` has no optional for it).
    package var isRequired: Bool {
        switch self {
        case .id, .name, .latitude, .longitude: true
        case .address, .category, .phone: false
        }
    }

    /// The field's name in messages ("latitude").
    package var label: String { "\(self)" }

    /// "latitude, lat, y, 위도", for "looked for …" messages.
    package var aliasList: String { aliases.joined(separator: ", ") }

    /// The field and the rank of its alias for a header, after trimming and
    /// case folding; nil for an attribute column.
    package static func matching(_ header: String) -> (field: StoreField, rank: Int)? {
        aliasTable[HeaderName.folded(header)]
    }

    /// Folded alias → (field, rank), built once.
    private static let aliasTable: [String: (field: StoreField, rank: Int)] = {
        var table: [String: (field: StoreField, rank: Int)] = [:]
        for field in allCases {
            for (rank, alias) in field.aliases.enumerated() {
                table[HeaderName.folded(alias)] = (field, rank)
            }
        }
        return table
    }()
}
