/// Any JSON document, decoded by Foundation's `JSONDecoder`, for files whose shape is checked
/// by hand so that each problem can be named (catalogs, pronunciation lexicons): the typed
/// stand-in for an untyped parse's `Any`.
public indirect enum JSONTree: Decodable, Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONTree])
    case object([String: JSONTree])

    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null }
        else if let b = try? c.decode(Bool.self) { self = .bool(b) }
        else if let n = try? c.decode(Double.self) { self = .number(n) }
        else if let s = try? c.decode(String.self) { self = .string(s) }
        else if let a = try? c.decode([JSONTree].self) { self = .array(a) }
        else { self = .object(try c.decode([String: JSONTree].self)) }
    }

    /// The string, when this is one.
    public var string: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The members, when this is an object.
    public var object: [String: JSONTree]? {
        if case .object(let o) = self { return o }
        return nil
    }
}
