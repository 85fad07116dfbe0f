import Foundation

/// Where new ids come from; injected so tests and replays are deterministic.
public protocol IdentifierSource: Sendable {
    func next() -> UUID
}

/// Random UUID v4 ids.
public struct RandomIdentifiers: IdentifierSource {
    public init() {}
    public func next() -> UUID { UUID() }
}

extension UUID {
    /// The contract's spelling: lowercase.
    public var lowercased: String { uuidString.lowercased() }
}
