import Foundation

/// Reads and writes the JSON-valued columns (titles, icons, lead times).
enum JSONColumn {
    static func encode<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    static func decode<T: Decodable>(_ type: T.Type, _ text: String, table: String, id: String) throws -> T {
        do {
            return try JSONDecoder().decode(type, from: Data(text.utf8))
        } catch {
            throw StoreError.corruptRow(table: table, id: id, reason: "unreadable JSON column: \(text.prefix(80))")
        }
    }
}
