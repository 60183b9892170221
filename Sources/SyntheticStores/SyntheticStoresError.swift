/// Why a synthetic list could not be made or written, in a sentence.
public struct SyntheticStoresError: Error, CustomStringConvertible, Sendable {
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
