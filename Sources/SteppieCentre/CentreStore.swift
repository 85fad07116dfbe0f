import Foundation
import SteppieCore
import SteppiePostgres
import SteppieSecurity
import SteppieSync

/// The centre's hub's tables on PostgreSQL (`HubSchema`, docs/centre.md), read and written
/// through a bounded pool: every push and pull is decided as `HubFeed` (the reference model) and
/// the household hub (`Store+SyncHub`) decide it. A refusal is a `SyncRefusal` result (the device's
/// contact time and clock offset are kept); a thrown error is PostgreSQL's (`PostgresSyncHub`
/// maps it). No state another hub needs lives in the process: several hubs may serve one
/// database. A process keeps only what it can read again (the records' owners it has read, which
/// never change).
package struct CentreStore: Sendable {
    package let pool: PostgresPool
    /// The argon2id cost of staff passwords (libsodium's interactive limits unless a test asks
    /// for cheaper ones).
    package let passwordLimits: PasswordHasher.Limits
    /// This store's mark in the nudges its pushes send (`nudgeStep`): its own hub process woke
    /// its held pulls already when the push returned, so its listener passes over them.
    package let sender = String(UUID().uuidString.prefix(8)).lowercased()
    /// The records' owners this process has read (`OwnerCache`): a push reads only the others.
    package let knownOwners = OwnerCache()

    package init(pool: PostgresPool, passwordLimits: PasswordHasher.Limits = .interactive) {
        self.pool = pool
        self.passwordLimits = passwordLimits
    }

    /// Failed joins within this window are counted; after `maxJoinFailures` every code waits
    /// (the household hub's numbers, `Store.joinWindowMilliseconds` and `Store.maxJoinFailures`).
    package static let joinWindowMilliseconds: Int64 = 10 * 60 * 1000
    package static let maxJoinFailures = 10
    /// How stale a device's stored contact time, clock offset and cursor may be left: a request
    /// writes them only once this has passed since they were (or the offset moved by half a
    /// second), so a device pulling again and again is not a row version each time.
    package static let contactResolutionMilliseconds: Int64 = 5_000

    /// Runs the missing migrations and makes the `hub_state` row (the hub's device id) when the
    /// database has none; the ids applied now.
    @discardableResult
    package func prepare() throws -> [String] {
        try pool.withConnection { c in
            let applied = try HubSchema.migrator.migrate(c)
            try c.run("INSERT INTO hub_state (id, device_id) VALUES ('singleton', $1) ON CONFLICT (id) DO NOTHING",
                      [.text(DeviceID(UUID()).text)])
            return applied
        }
    }

    /// Whether a `steppie hub` has set this database up: its migrations recorded and its identity's table made.
    package func isSetUp() throws -> Bool {
        try pool.withConnection { c in
            try c.queryFirst("SELECT to_regclass('steppie_migrations') IS NOT NULL AND to_regclass('hub_identity') IS NOT NULL") {
                try $0.bool(0)
            } ?? false
        }
    }

    /// The hub's device id (its stamps' device; what a joined device records as its hub).
    package func hubDevice() throws -> DeviceID {
        try pool.withConnection { c in try Self.hubDevice(c) }
    }

    static func hubDevice(_ c: PostgresConnection) throws -> DeviceID {
        guard let text = try c.queryFirst("SELECT device_id FROM hub_state WHERE id = 'singleton'", [], { try $0.text(0) }),
              let device = DeviceID(text) else {
            throw PostgresError.unexpectedValue(column: 0, expected: "the hub's device id", statement: "hub_state")
        }
        return device
    }

    /// The channel every hub process listens on (`PostgresSyncHub.startListening`).
    package static let feedChannel = "steppie_feed"

    /// Tells every hub process on the database, when this transaction commits, that the feed or a
    /// device's copy moved: their held pulls read again at once instead of at their next poll. Only
    /// a nudge: it carries nothing, and a hub that missed it still reads the change at its next poll.
    static func nudge(_ c: PostgresConnection) throws {
        try c.run("NOTIFY \(feedChannel)")
    }

    /// A nudge for the pulls of devices that get one of `children` (their ids, comma-separated, as
    /// the payload; PostgreSQL takes up to 8,000 bytes, so a push touching more children than fit
    /// nudges everyone), sent at the transaction's commit as `nudge`, as a step of a push's
    /// pipeline. It names the sending store and the pushing device (`sender/origin;child,child`:
    /// the sender's own process woke its held pulls already, and the device's own held pull is not
    /// woken, it would find only its own entries); an empty payload nudges everyone.
    static func nudgeStep(children: Set<String>, origin: String? = nil, sender: String? = nil) -> PostgresConnection.Step {
        PostgresConnection.Step(Statements.notify, [.text(feedChannel), .text(nudgePayload(children: children, origin: origin, sender: sender))])
    }

    /// `nudgeStep` for each push of a group, in one statement (`Statements.notifyAll`): one
    /// statement a push was 1,506 statements in three mornings at once (docs/performance.md,
    /// session 54).
    static func nudgesStep(_ pushes: [(children: Set<String>, origin: String)], sender: String) -> PostgresConnection.Step {
        PostgresConnection.Step(Statements.notifyAll, [.text(feedChannel),
                                                       .text(textArray(pushes.map { nudgePayload(children: $0.children, origin: $0.origin, sender: sender) }))])
    }

    /// A nudge's payload (`nudgeStep`), empty when it would not fit.
    static func nudgePayload(children: Set<String>, origin: String?, sender: String?) -> String {
        let payload = (sender.map { $0 + "/" } ?? "") + (origin.map { $0 + ";" } ?? "") + children.sorted().joined(separator: ",")
        return payload.utf8.count <= maxNudgePayload ? payload : ""
    }

    /// A nudge's payload read back: the sending store and the pushing device (when named; a hub
    /// of an earlier version names neither or only the device) and the children.
    package static func nudged(_ payload: String) -> (sender: String?, origin: String?, children: Set<String>) {
        let parts = payload.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)
        var sender: String?, origin = parts.count == 2 ? String(parts[0]) : nil
        if let named = origin, let slash = named.firstIndex(of: "/") {
            sender = String(named[..<slash])
            origin = String(named[named.index(after: slash)...])
        }
        return (sender, origin, Set((parts.last ?? "").split(separator: ",").map(String.init)))
    }

    /// The longest list of children a nudge names (PostgreSQL's limit is 8,000 bytes).
    static let maxNudgePayload = 7_000

    /// What `admit` found of a device.
    package struct Admitted {
        /// Every child the device gets: its own and its group's.
        package let children: Set<String>
        /// Its own (`devices.children`): granted one by one, or made on it.
        let own: Set<String>
        let acknowledged: UInt64
        package let needsCopy: Bool
    }

    /// The statements that admit a device, for a pipeline: (`lock`, a push) its row held until
    /// the transaction ends, so pushes of one device are taken one after another (held first, read
    /// after: a group change holds its devices' rows before it changes the group, so a push that
    /// waited for one reads the group as that change left it); its contact time and clock offset
    /// written when the credential is its, even when its clock is then refused, and its row read, in
    /// one statement (`Statements.contact`). A pull (`cursor`) writes the cursor it comes with along with its contact.
    /// `admitted` reads what they found. The protocol's version is checked before (`versionRefusal`).
    static func admitSteps(device: DeviceID, credentialHash: String, sentAt: Int64, now: Int64, lock: Bool,
                           cursor: UInt64? = nil) -> [PostgresConnection.Step] {
        let contact = if let cursor {
            PostgresConnection.Step(Statements.pullContact, [.integer(now), .integer(sentAt - now), .text(device.text), .text(credentialHash),
                                                             .integer(Int64(clamping: cursor))])
        } else {
            PostgresConnection.Step(Statements.contact, [.integer(now), .integer(sentAt - now), .text(device.text), .text(credentialHash)])
        }
        return (lock ? [PostgresConnection.Step(Statements.lockDevice, [.text(device.text)])] : []) + [contact]
    }

    /// The device's children from `admitSteps`' results (its read at `index`), after checking
    /// its credential and clock.
    static func admitted(_ results: PostgresConnection.Results, at index: Int, credentialHash: String, sentAt: Int64,
                         now: Int64) throws -> Result<Admitted, SyncRefusal> {
        guard let row = try results.first(index, { r in
            (try r.text(0), try r.text(1), UInt64(clamping: try r.int(2)), try r.bool(3), try r.text(4))
        }), equalHashes(row.0, credentialHash) else { return .failure(.unknownDevice) }
        let offset = sentAt - now
        guard abs(offset) <= SyncProtocol.maxClockOffsetMilliseconds else { return .failure(.clockSkew(offsetMilliseconds: offset)) }
        let own = Set(SyncJSON.value(row.1)?.strings ?? [])
        return .success(Admitted(children: own.union(SyncJSON.value(row.4)?.strings ?? []), own: own, acknowledged: row.2, needsCopy: row.3))
    }

    /// A device of another protocol version is refused before anything is read or written.
    static func versionRefusal(_ protocolVersion: Int) -> SyncRefusal? {
        protocolVersion == SyncProtocol.version ? nil : .protocolVersion(hub: SyncProtocol.version, device: protocolVersion)
    }

    /// Compares two hex hashes without stopping at the first difference.
    static func equalHashes(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }

    /// A list of ids as a `jsonb` array parameter (the `children` columns of devices and invites).
    static func list(_ items: some Sequence<String>) -> PostgresValue {
        .text(SyncJSON.text(.array(items.sorted().map(SyncValue.string))))
    }

    /// An entry as the feed keeps it (the protocol's JSON).
    static func json(_ entry: SyncEntry) -> String {
        SyncProtocol.encode(entry).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// An instant as `devices.joined_at` keeps it (UTC, milliseconds).
    static func stamp(_ milliseconds: Int64) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
    }
}
