import Foundation
import StoreCatalog
import TestSupport
import Testing

@Suite("Header aliases")
struct HeaderAliasFormatTests {
    /// One store written with the given header names for id, name, latitude
    /// and longitude.
    static func store(headers: [String]) throws -> Store? {
        let rows = try readRows(headers.joined(separator: ",") + "\ns1,Seongsu,37.5446,127.0557\n")
        return rows.stores.first
    }

    static let expected = Store(id: "s1", name: "Seongsu", latitude: 37.5446, longitude: 127.0557)

    @Test(arguments: StoreField.id.aliases)
    func everyIdAliasNamesTheId(alias: String) throws {
        #expect(try Self.store(headers: [alias, "name", "latitude", "longitude"]) == Self.expected)
    }

    @Test(arguments: StoreField.name.aliases)
    func everyNameAliasNamesTheName(alias: String) throws {
        #expect(try Self.store(headers: ["id", alias, "latitude", "longitude"]) == Self.expected)
    }

    @Test(arguments: StoreField.latitude.aliases)
    func everyLatitudeAliasNamesTheLatitude(alias: String) throws {
        #expect(try Self.store(headers: ["id", "name", alias, "longitude"]) == Self.expected)
    }

    @Test(arguments: StoreField.longitude.aliases)
    func everyLongitudeAliasNamesTheLongitude(alias: String) throws {
        #expect(try Self.store(headers: ["id", "name", "latitude", alias]) == Self.expected)
    }

    @Test func aliasesMatchIgnoringCase() throws {
        #expect(try Self.store(headers: ["STORE_ID", "Title", "LAT", "Lng"]) == Self.expected)
        #expect(try Self.store(headers: ["storeid", "NAME", "Latitude", "LONGITUDE"]) == Self.expected)
    }

    @Test func xIsTheLongitudeAndYTheLatitude() throws {
        // The visibleItemsInvalidationHandler article: camera at (latitude: store.y, longitude: store.x).
        let rows = try readRows("id,name,x,y\ns1,Seongsu,127.0557,37.5446\n")
        #expect(rows.stores == [Self.expected])
    }

    @Test func optionalFieldsHaveAliasesToo() throws {
        let rows = try readRows("id,name,lat,lng,addr,category,tel\ns1,Seongsu,37.5446,127.0557,연무장길 29,Roastery,02-123\n")
        let store = try #require(rows.stores.first)
        #expect(store.address == "연무장길 29")
        #expect(store.category == "Roastery")
        #expect(store.phone == "02-123")
        #expect(store.attributes.isEmpty)
    }

    @Test func theFirstAliasInAliasOrderWinsAndTheOthersStayAttributes() throws {
        // `latitude` comes before `lat` in the aliases, wherever the columns stand.
        let rows = try readRows("lat,id,name,latitude,lng,x\n1.5,s1,Seongsu,37.5446,127.0557,9\n")
        let store = try #require(rows.stores.first)
        #expect(store.latitude == 37.5446)
        #expect(store.longitude == 127.0557)
        #expect(store.attributes == ["lat": "1.5", "x": "9"])
    }

    @Test func koreanPublicDataHeadersMapToStoreFields() throws {
        let rows = try readRows(Paths.sampleData.appendingPathComponent("seoul-coffee-ko.csv"), as: .csv)
        #expect(rows.issues.isEmpty)
        #expect(rows.count == 6)
        let first = try #require(rows.stores.first)
        #expect(first.id == "MA010120220805430767")
        #expect(first.name == "하늘커피")
        #expect(first.latitude == 37.4979 && first.longitude == 127.0276)
        // 도로명주소 comes before 지번주소, 소분류 before 중분류 and 대분류.
        #expect(first.address == "서울특별시 강남구 강남대로 396")
        #expect(first.category == "카페")
        #expect(
            first.attributes == [
                "지점명": "강남역점", "상권업종대분류명": "음식", "상권업종중분류명": "비알코올",
                "지번주소": "서울특별시 강남구 역삼동 825-19",
            ])
        #expect(rows.stores[1].address == "서울특별시 종로구 세종대로 175, 2층")
    }

    @Test func otherColumnsKeepTheirHeaderAsWritten() throws {
        let rows = try readRows("id,name,lat,lng, Opened On \ns1,A,1,2,2021-03\n")
        #expect(rows.stores.first?.attributes == ["Opened On": "2021-03"])
    }
}
