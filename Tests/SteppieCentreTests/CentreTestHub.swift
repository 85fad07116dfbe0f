import Foundation
import SteppieCentre
import SteppieCore
import SteppiePostgres
import SteppieSync
import Testing

/// The suites on the private cluster of `scripts/with-postgres.sh` (`STEPPIE_TEST_POSTGRES`).
@Suite(.serialized, .enabled(if: CentreTestDatabase.conninfo != nil,
                             "STEPPIE_TEST_POSTGRES is unset: run under scripts/with-postgres.sh (scripts/test.sh does)"))
struct CentreTests {}

/// A schema of its own for each test on the shared test database, dropped afterwards.
struct CentreTestDatabase {
    static var conninfo: String? { ProcessInfo.processInfo.environment["STEPPIE_TEST_POSTGRES"] }

    let schema: String
    let conninfo: String

    init() throws {
        let base = try #require(Self.conninfo)
        schema = "centre_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let admin = try PostgresConnection(conninfo: base)
        // An identifier cannot be a parameter; this one is made here of [a-z0-9_] only.
        try admin.run("CREATE SCHEMA \(schema)")
        conninfo = base + " options='-csearch_path=\(schema)'"
    }

    func drop() {
        guard let base = Self.conninfo, let admin = try? PostgresConnection(conninfo: base) else { return }
        _ = try? admin.run("DROP SCHEMA \(schema) CASCADE")
    }

    /// Every table's rows as text, in a fixed order: what "unchanged" compares.
    func dump(except: Set<String> = []) throws -> String {
        let c = try PostgresConnection(conninfo: conninfo)
        var out = ""
        for table in ["hub_state", "devices", "invites", "join_attempts", "registers", "events", "feed", "conflicts", "blobs",
                      "staff", "groups", "group_children"]
        where !except.contains(table) {
            out += "\(table):\n"
            out += try c.query("SELECT t::text FROM \(table) t ORDER BY t::text COLLATE \"C\"") { try $0.text(0) }.joined(separator: "\n")
            out += "\n"
        }
        return out
    }
}

/// A device as the tests drive it: its id, credential, the entries it numbered, its cursor.
struct TestDevice {
    let id = DeviceID(UUID())
    var credential = ""
    var seq: UInt64 = 0
    var cursor: UInt64 = 0
    var counter: UInt32 = 0

    mutating func stamp(_ now: Int64) -> HybridTimestamp {
        counter += 1
        return HybridTimestamp(wall: now, counter: counter, device: id)
    }

    mutating func change(_ entity: SyncEntity, _ record: String, child: String, _ field: String, _ value: SyncValue, now: Int64) -> NumberedEntry {
        seq += 1
        return NumberedEntry(seq: seq, entry: .change(FieldChange(entity: entity, record: record, child: child, field: field,
                                                                 value: value, stamp: stamp(now))))
    }

    mutating func press(child: String, routine: String, now: Int64, date: String = "2026-12-03") -> NumberedEntry {
        seq += 1
        return NumberedEntry(seq: seq, entry: .event(CompletionEvent(id: UUID().uuidString.lowercased(), child: child, routine: routine,
                                                                    set: "set-1", date: date, kind: .press,
                                                                    at: "\(date)T08:00:00.000+09:00", stamp: stamp(now))))
    }
}

/// A hub on a fresh schema with a manual clock.
struct CentreFixture {
    let database: CentreTestDatabase
    let pool: PostgresPool
    let store: CentreStore
    let clock = ManualWallClock(Date(timeIntervalSince1970: 1_796_000_000))
    let hub: PostgresSyncHub

    init(database: CentreTestDatabase? = nil) throws {
        self.database = try database ?? CentreTestDatabase()
        pool = PostgresPool(conninfo: self.database.conninfo, size: 4)
        store = CentreStore(pool: pool)
        try store.prepare()
        hub = PostgresSyncHub(store: store, clock: clock, log: { _ in })
    }

    var now: Int64 { SyncProtocol.milliseconds(clock.now()) }

    /// Joins a device with a code for these children.
    func join(_ device: inout TestDevice, children: [String], name: String = "room") throws {
        let code = "1234-\(Int.random(in: 1000...9999))"
        try store.invite(codeHash: PostgresSyncHub.codeHash(code), children: children, expiresAt: now + 600_000)
        let reply = try hub.join(JoinRequest(code: code, deviceName: name, device: device.id))
        device.credential = reply.credential
    }

    func push(_ device: TestDevice, _ entries: [NumberedEntry], sentAt: Int64? = nil) throws(SyncRefusal) -> PushReply {
        try hub.push(PushRequest(device: device.id, sentAt: sentAt ?? now, entries: entries), credential: device.credential)
    }

    /// Pulls until nothing more, following copies; every entry received.
    func pullAll(_ device: inout TestDevice) throws(SyncRefusal) -> [SyncEntry] {
        var entries: [SyncEntry] = []
        var copyAfter: String?
        while true {
            let reply = try hub.pull(PullRequest(device: device.id, sentAt: now, cursor: device.cursor, copyAfter: copyAfter),
                                     credential: device.credential)
            entries += reply.entries
            device.cursor = reply.cursor
            copyAfter = reply.copyAfter
            if !reply.more { return entries }
        }
    }

    /// The digest lines of the hub's state.
    func state() throws -> [[String]] {
        var lines: [[String]] = []
        _ = try store.canonicalState { lines.append($0) }
        return lines
    }
}
