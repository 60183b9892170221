/// A city the generator spreads stores around: its centre and how many
/// people live there, which sets both its share of the stores and how far
/// they spread.
struct City: Sendable {
    var name: String
    var latitude: Double
    var longitude: Double
    /// Metropolitan population in millions (rounded public figures): a city
    /// gets stores in proportion to it, as chains open where people are.
    var millions: Double

    /// Thirty metropolitan areas of East Asia, Europe and the Americas, with
    /// their centres' coordinates (public figures, rounded to 0.01°): enough
    /// spread that a box or a nearest search meets dense cores, suburbs and
    /// empty sea.
    static let all: [City] = [
        City(name: "Seoul", latitude: 37.57, longitude: 126.98, millions: 9.7),
        City(name: "Busan", latitude: 35.18, longitude: 129.08, millions: 3.4),
        City(name: "Incheon", latitude: 37.46, longitude: 126.71, millions: 3.0),
        City(name: "Daegu", latitude: 35.87, longitude: 128.60, millions: 2.4),
        City(name: "Daejeon", latitude: 36.35, longitude: 127.38, millions: 1.5),
        City(name: "Gwangju", latitude: 35.16, longitude: 126.85, millions: 1.4),
        City(name: "Ulsan", latitude: 35.54, longitude: 129.31, millions: 1.1),
        City(name: "Jeju", latitude: 33.50, longitude: 126.53, millions: 0.5),
        City(name: "Tokyo", latitude: 35.68, longitude: 139.65, millions: 14.0),
        City(name: "Osaka", latitude: 34.69, longitude: 135.50, millions: 8.8),
        City(name: "Nagoya", latitude: 35.18, longitude: 136.91, millions: 2.3),
        City(name: "Fukuoka", latitude: 33.59, longitude: 130.40, millions: 1.6),
        City(name: "Sapporo", latitude: 43.06, longitude: 141.35, millions: 2.0),
        City(name: "Taipei", latitude: 25.03, longitude: 121.57, millions: 7.0),
        City(name: "Shanghai", latitude: 31.23, longitude: 121.47, millions: 24.0),
        City(name: "Beijing", latitude: 39.90, longitude: 116.41, millions: 21.0),
        City(name: "Hong Kong", latitude: 22.32, longitude: 114.17, millions: 7.5),
        City(name: "Singapore", latitude: 1.35, longitude: 103.82, millions: 5.6),
        City(name: "London", latitude: 51.51, longitude: -0.13, millions: 9.0),
        City(name: "Paris", latitude: 48.86, longitude: 2.35, millions: 11.0),
        City(name: "Berlin", latitude: 52.52, longitude: 13.40, millions: 3.7),
        City(name: "Madrid", latitude: 40.42, longitude: -3.70, millions: 6.7),
        City(name: "Rome", latitude: 41.90, longitude: 12.50, millions: 4.3),
        City(name: "Istanbul", latitude: 41.01, longitude: 28.98, millions: 15.5),
        City(name: "New York", latitude: 40.71, longitude: -74.01, millions: 19.0),
        City(name: "Los Angeles", latitude: 34.05, longitude: -118.24, millions: 13.0),
        City(name: "Chicago", latitude: 41.88, longitude: -87.63, millions: 9.5),
        City(name: "Toronto", latitude: 43.65, longitude: -79.38, millions: 6.2),
        City(name: "Mexico City", latitude: 19.43, longitude: -99.13, millions: 21.8),
        City(name: "São Paulo", latitude: -23.55, longitude: -46.63, millions: 22.0),
    ]
}
