/// A store on the map: one card of the carousel, one marker.
///
/// `id` is unique across the catalog (lists refer to stores by id);
/// `latitude`/`longitude` are WGS 84 degrees. Every input column that is not
/// one of the named fields is kept in `attributes`, by its header as written,
/// with its type (``AttributeValue``).
public struct Store: Sendable, Hashable, Codable {
    public var id: String
    public var name: String
    public var latitude: Double
    public var longitude: Double
    public var address: String?
    public var category: String?
    public var phone: String?
    public var attributes: [String: AttributeValue]

    public init(
        id: String,
        name: String,
        latitude: Double,
        longitude: Double,
        address: String? = nil,
        category: String? = nil,
        phone: String? = nil,
        attributes: [String: AttributeValue] = [:]
    ) {
        self.id = id
        self.name = name
        self.latitude = latitude
        self.longitude = longitude
        self.address = address
        self.category = category
        self.phone = phone
        self.attributes = attributes
    }
}
