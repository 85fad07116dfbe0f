/// An optional that is written as JSON `null` when absent, rather than left out: for documents
/// whose readers expect every key (the CLI's `--json`, the event log). A plain `Optional`
/// property of a synthesized `Encodable` is left out instead.
@propertyWrapper
public struct NullIfAbsent<Value: Encodable & Sendable>: Encodable, Sendable {
    public var wrappedValue: Value?

    public init(wrappedValue: Value?) { self.wrappedValue = wrappedValue }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue { try container.encode(wrappedValue) } else { try container.encodeNil() }
    }
}

extension NullIfAbsent: Equatable where Value: Equatable {}
