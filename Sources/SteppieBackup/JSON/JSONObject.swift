import Foundation
import SteppieCore

/// Typed, lenient access to one JSON object of a backup: accepts either platform's spelling of a
/// field, treats an explicit null like a missing field, and reads `1` as `1.0`. Every failure
/// names the path of the field.
struct JSONObject {
    let fields: [String: JSONValue]
    let path: String

    init(_ value: JSONValue, path: String) throws {
        guard case .object(let o) = value else { throw BackupError.dataInvalid(path: path, reason: "expected an object") }
        fields = o
        self.path = path
    }

    /// The first non-null value among `keys`.
    func value(_ keys: [String]) -> (String, JSONValue)? {
        for k in keys { if let v = fields[k], !v.isNull { return (k, v) } }
        return nil
    }

    func has(_ key: String) -> Bool { fields[key].map { !$0.isNull } ?? false }

    private func missing(_ keys: [String]) -> BackupError {
        .dataInvalid(path: "\(path).\(keys[0])", reason: "missing")
    }

    private func wrong(_ key: String, _ expected: String) -> BackupError {
        .dataInvalid(path: "\(path).\(key)", reason: "expected \(expected)")
    }

    func optionalString(_ keys: String...) throws -> String? {
        guard let (k, v) = value(keys) else { return nil }
        guard case .string(let s) = v else { throw wrong(k, "a string") }
        return s
    }

    func string(_ keys: String...) throws -> String {
        guard let (k, v) = value(keys) else { throw missing(keys) }
        guard case .string(let s) = v else { throw wrong(k, "a string") }
        return s
    }

    func uuid(_ keys: String...) throws -> UUID {
        guard let (k, v) = value(keys) else { throw missing(keys) }
        guard case .string(let s) = v, let id = UUID(uuidString: s) else { throw wrong(k, "a UUID") }
        return id
    }

    func optionalUUID(_ keys: String...) throws -> UUID? {
        guard let (k, v) = value(keys) else { return nil }
        guard case .string(let s) = v, let id = UUID(uuidString: s) else { throw wrong(k, "a UUID") }
        return id
    }

    func bool(_ key: String, default fallback: Bool? = nil) throws -> Bool {
        guard let (k, v) = value([key]) else {
            if let fallback { return fallback }
            throw missing([key])
        }
        guard case .bool(let b) = v else { throw wrong(k, "true or false") }
        return b
    }

    func double(_ key: String, default fallback: Double? = nil) throws -> Double {
        guard let (k, v) = value([key]) else {
            if let fallback { return fallback }
            throw missing([key])
        }
        guard case .number(let d) = v else { throw wrong(k, "a number") }
        return d
    }

    func int(_ key: String, default fallback: Int? = nil) throws -> Int {
        let d = try double(key, default: fallback.map(Double.init))
        guard d.rounded() == d, abs(d) < 1e15 else { throw wrong(key, "a whole number") }
        return Int(d)
    }

    func ints(_ key: String, default fallback: [Int]) throws -> [Int] {
        guard let (k, v) = value([key]) else { return fallback }
        guard case .array(let items) = v else { throw wrong(k, "an array of whole numbers") }
        return try items.map {
            guard case .number(let d) = $0, d.rounded() == d, abs(d) < 1e15 else { throw wrong(k, "an array of whole numbers") }
            return Int(d)
        }
    }

    func stamp(_ keys: String...) throws -> Date {
        guard let (k, v) = value(keys) else { throw missing(keys) }
        guard case .string(let s) = v, let d = Timestamp.parse(s) else { throw wrong(k, "an ISO 8601 timestamp with an offset") }
        return d
    }

    func optionalStamp(_ keys: String...) throws -> Date? {
        guard let (k, v) = value(keys) else { return nil }
        guard case .string(let s) = v, let d = Timestamp.parse(s) else { throw wrong(k, "an ISO 8601 timestamp with an offset") }
        return d
    }

    func day(_ key: String) throws -> LocalDay {
        guard case .string(let s)? = value([key])?.1 else { throw missing([key]) }
        guard let d = LocalDay(s) else { throw wrong(key, "a date YYYY-MM-DD") }
        return d
    }

    func optionalTime(_ keys: String...) throws -> LocalTime? {
        guard let (k, v) = value(keys) else { return nil }
        guard case .string(let s) = v, let t = LocalTime(s) else { throw wrong(k, "a time HH:mm") }
        return t
    }

    func text(_ key: String) throws -> LocalizedText {
        guard let (k, v) = value([key]) else { throw missing([key]) }
        guard case .object(let o) = v else { throw wrong(k, "an object of language tags to text") }
        var out: [String: String] = [:]
        for (tag, t) in o {
            if t.isNull { continue }
            guard case .string(let s) = t else { throw wrong("\(k).\(tag)", "a string") }
            out[tag] = s
        }
        return LocalizedText(out)
    }

    func object(_ key: String) throws -> JSONObject? {
        guard let (k, v) = value([key]) else { return nil }
        return try JSONObject(v, path: "\(path).\(k)")
    }

    func array(_ key: String) throws -> [JSONValue] {
        guard let (k, v) = value([key]) else { return [] }
        guard case .array(let a) = v else { throw wrong(k, "an array") }
        return a
    }
}
