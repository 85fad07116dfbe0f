/// A synced field's value, as JSON: titles and icons are objects, orders are arrays of ids.
package indirect enum SyncValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([SyncValue])
    case object([String: SyncValue])

    package var string: String? { if case .string(let s) = self { return s } else { return nil } }
    package var bool: Bool? { if case .bool(let b) = self { return b } else { return nil } }
    package var int: Int64? { if case .int(let i) = self { return i } else { return nil } }
    package var strings: [String]? {
        guard case .array(let items) = self else { return nil }
        let strings = items.compactMap(\.string)
        return strings.count == items.count ? strings : nil
    }
}

extension SyncValue: Codable {
    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let b = try? container.decode(Bool.self) { self = .bool(b) }
        else if let i = try? container.decode(Int64.self) { self = .int(i) }
        else if let d = try? container.decode(Double.self) { self = .double(d) }
        else if let s = try? container.decode(String.self) { self = .string(s) }
        else if let a = try? container.decode([SyncValue].self) { self = .array(a) }
        else { self = .object(try container.decode([String: SyncValue].self)) }
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let b): try container.encode(b)
        case .int(let i): try container.encode(i)
        case .double(let d): try container.encode(d)
        case .string(let s): try container.encode(s)
        case .array(let a): try container.encode(a)
        case .object(let o): try container.encode(o)
        }
    }
}
