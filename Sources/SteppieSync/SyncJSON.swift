import Foundation

/// Register values as stored (JSON text in SQLite, `jsonb` in PostgreSQL) and back: read into a
/// `SyncValue`, written with the protocol's encoder (keys sorted), so both hubs and every device
/// write the same bytes for the same value.
package enum SyncJSON {
    package static func value(_ text: String) -> SyncValue? {
        try? SyncWireReader.decode(SyncValue.self, from: Data(text.utf8))
    }

    package static func text(_ value: SyncValue) -> String {
        SyncProtocol.encode(value).map { String(decoding: $0, as: UTF8.self) } ?? "null"
    }

    /// A stored JSON text written again canonically (the text itself when it is not JSON).
    package static func canonical(_ text: String) -> String {
        value(text).map(Self.text) ?? text
    }
}

/// The canonical lines of a holder's synced state (`steppie sync digest` on a device, `steppie
/// hub digest` on the centre's hub): every register ordered by entity, record and field, then every
/// event ordered by id (byte order), each a line of fields joined by U+001F. Two holders of the same
/// children that agree hash the same bytes, whichever store they keep them in.
package enum SyncCanonical {
    package static func register(entity: String, record: String, field: String, child: String, value: String, stamp: String) -> [String] {
        ["r", entity, record, field, child, SyncJSON.canonical(value), stamp]
    }

    /// An event's ten columns (id, child, routine, set, date, kind, at, stamp, shown title or "",
    /// shown icon or "").
    package static func event(_ columns: [String]) -> [String] {
        ["e"] + columns.enumerated().map { i, text in i >= 8 && !text.isEmpty ? SyncJSON.canonical(text) : text }
    }

    /// The bytes one line adds to the digest.
    package static func bytes(_ fields: [String]) -> [UInt8] {
        Array((fields.joined(separator: "\u{1F}") + "\n").utf8)
    }
}
