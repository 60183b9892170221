/// An error to send through a sequence under test; equal by message.
public struct TestError: Error, Equatable, CustomStringConvertible {
    /// What the test meant by it.
    public let message: String

    /// An error saying `message`.
    public init(_ message: String = "test error") {
        self.message = message
    }

    public var description: String {
        "TestError(\(message))"
    }
}
