import Foundation
import SteppieCore
import SteppiePostgres
import SteppieSync

extension CentreStore {
    /// A device joined to the centre's hub, as `steppie hub devices` shows it.
    package struct Device: Equatable, Sendable {
        package let id: DeviceID
        package let name: String
        package let children: [String]
        package let acknowledged: UInt64
        package let cursor: UInt64
        package let lastContact: Int64?
        package let lastOffsetMilliseconds: Int64?
    }

    /// Stores a joining code (its SHA-256 only) for these children, valid until `expiresAt`.
    package func invite(codeHash: String, children: [String], expiresAt: Int64) throws {
        try pool.withConnection { c in try Self.invite(c, codeHash: codeHash, children: children, expiresAt: expiresAt) }
    }

    static func invite(_ c: PostgresConnection, codeHash: String, children: [String], expiresAt: Int64) throws {
        try c.run("INSERT INTO invites (code_hash, children, expires_at) VALUES ($1, $2::jsonb, $3)",
                  [.text(codeHash), Self.list(children), .integer(expiresAt)])
    }

    /// A device joins with a code (`Store.syncHubJoin`): refused (`unknownDevice`) for a wrong,
    /// used or expired code, and for every code once `maxJoinFailures` wrong ones came within the
    /// window. Joins are taken one at a time (an advisory lock), so the count holds across processes.
    package func join(codeHash: String, device: DeviceID, name: String, credentialHash: String,
                      now: Int64) throws -> Result<(hub: DeviceID, children: [String]), SyncRefusal> {
        try pool.withConnection { c in
            try c.transaction { c -> Result<(hub: DeviceID, children: [String]), SyncRefusal> in
                try c.run("SELECT pg_advisory_xact_lock($1)", [.integer(Self.joinLockKey)])
                let hub = try Self.hubDevice(c)
                try c.run("DELETE FROM join_attempts WHERE at < $1", [.integer(now - Self.joinWindowMilliseconds)])
                let failures = try c.queryFirst("SELECT COUNT(*) FROM join_attempts", [], { try $0.int(0) }) ?? 0
                guard failures < Self.maxJoinFailures else { return .failure(.joinLocked) }
                guard let (invite, children) = try c.queryFirst("""
                    SELECT id, children::text FROM invites WHERE code_hash = $1 AND NOT used AND expires_at > $2 LIMIT 1
                    """, [.text(codeHash), .integer(now)], { (try $0.int(0), SyncJSON.value(try $0.text(1))?.strings ?? []) }) else {
                    try c.run("INSERT INTO join_attempts (at) VALUES ($1)", [.integer(now)])
                    return .failure(.unknownDevice)
                }
                guard try c.queryFirst("SELECT 1 FROM devices WHERE id = $1", [.text(device.text)], { _ in true }) == nil,
                      device != hub else { return .failure(.malformed(reason: "device id in use")) }
                try c.run("UPDATE invites SET used = true WHERE id = $1", [.integer(invite)])
                try c.run("""
                    INSERT INTO devices (id, name, credential_hash, children, joined_at, last_contact) VALUES ($1, $2, $3, $4::jsonb, $5, $6)
                    """, [.text(device.text), .text(String(name.prefix(60))), .text(credentialHash), Self.list(children),
                          .text(Self.stamp(now)), .integer(now)])
                return .success((hub, children.sorted()))
            }
        }
    }

    /// The advisory lock joins take (distinct from the migrator's).
    static let joinLockKey: Int64 = 0x5374_6570_4A6F_696E

    /// The devices joined to the hub, in the order they joined.
    package func devices() throws -> [Device] {
        try pool.withConnection { c in
            try c.query("""
                SELECT id, name, children::text, acknowledged, cursor, last_contact, last_offset_ms FROM devices ORDER BY joined_at, id
                """, [], Self.device)
        }
    }

    /// A device from `devices()`'s columns.
    static func device(_ r: PostgresRow) throws -> Device {
        guard let id = DeviceID(try r.text(0)) else {
            throw PostgresError.unexpectedValue(column: 0, expected: "a device id", statement: "devices")
        }
        return Device(id: id, name: try r.text(1), children: SyncJSON.value(try r.text(2))?.strings ?? [],
                      acknowledged: UInt64(clamping: try r.int(3)), cursor: UInt64(clamping: try r.int(4)),
                      lastContact: try r.optionalInt(5), lastOffsetMilliseconds: try r.optionalInt(6))
    }

    /// Removes a device: its credential stops working at once. False when there was none.
    @discardableResult
    package func remove(device: DeviceID) throws -> Bool {
        try pool.withConnection { c in try Self.remove(c, device: device) }
    }

    static func remove(_ c: PostgresConnection, device: DeviceID) throws -> Bool {
        let removed = try c.run("DELETE FROM devices WHERE id = $1", [.text(device.text)]) == 1
        // Every held pull looks again, its device admitted anew: one of this device's is refused
        // (woken by a push, a held pull answers from its process's tail without reading its row).
        if removed { try Self.nudge(c) }
        return removed
    }

    /// Gives a device these children of its own, besides its group's (its next pull is a fresh
    /// copy). The machine's operator's (`steppie hub grant --child`); staff use `grant(device:children:actor:)`.
    package func grant(device: DeviceID, children: [String]) throws {
        try pool.withConnection { c in _ = try Self.grant(c, device: device, children: children) }
    }

    /// The device's own children from now on (its group's it keeps getting); the rows changed.
    static func grant(_ c: PostgresConnection, device: DeviceID, children: [String]) throws -> Int {
        let changed = try c.run("UPDATE devices SET children = $1::jsonb, needs_copy = true WHERE id = $2",
                                [Self.list(Set(children)), .text(device.text)])
        try Self.nudge(c)
        return changed
    }

    /// The children the hub holds that are not archived, by name (their `child` registers).
    package func children() throws -> [(id: String, name: String)] {
        try pool.withConnection { c in try Self.activeChildNames(c) }
    }

    /// The hub's synced state, canonical and in a fixed order (every register, then every event),
    /// handed to `line` one record at a time: `Store.syncCanonicalState`'s lines, so `steppie hub
    /// digest` equals `steppie sync digest` on a device holding every child.
    package func canonicalState(_ line: ([String]) -> Void) throws -> (registers: Int, events: Int) {
        try pool.withConnection { c in
            try c.transaction { c in
                try c.run("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
                var registers = 0, events = 0
                for row in try c.query("""
                    SELECT entity, record, field, child, value::text, stamp FROM registers
                    ORDER BY entity COLLATE "C", record COLLATE "C", field COLLATE "C"
                    """, [], { r in try (0..<6).map { try r.text($0) } }) {
                    line(SyncCanonical.register(entity: row[0], record: row[1], field: row[2], child: row[3], value: row[4], stamp: row[5]))
                    registers += 1
                }
                for row in try c.query("""
                    SELECT id, child, routine, set_id, date, kind, at, stamp, COALESCE(shown_title::text, ''), COALESCE(shown_icon::text, '')
                    FROM events ORDER BY id COLLATE "C"
                    """, [], { r in try (0..<10).map { try r.text($0) } }) {
                    line(SyncCanonical.event(row))
                    events += 1
                }
                return (registers, events)
            }
        }
    }
}
