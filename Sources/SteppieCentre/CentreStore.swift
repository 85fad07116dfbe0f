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

/// The statements run for every request, prepared once per session.
enum Statements {
    /// A device's credential hash, own children, acknowledged, needs_copy and its group's children
    /// (the device's id is `$3`), read by the statement that writes its contact (`contact`,
    /// `pullContact`): the contact's write and the read were two statements for every request,
    /// 3,902 of each in three mornings at once (docs/performance.md, session 54). The read sees
    /// the row as it was before the write, which changes none of what it reads.
    static let admitRead = """
        SELECT d.credential_hash, d.children::text, d.acknowledged, d.needs_copy,
               COALESCE((SELECT jsonb_agg(g.child) FROM group_children g WHERE g.group_id = d.group_id), '[]')::text
        FROM devices d WHERE d.id = $3
        """
    static let lockDevice = PostgresStatement("centre_lock_device", "SELECT 1 FROM devices WHERE id = $1 FOR UPDATE")
    /// A device's contact time and clock offset, written only when the credential's hash is its,
    /// and only when they moved: the contact is 5 s old or more (or ahead of the hub's clock), or
    /// the offset moved by half a second (pages show it to a tenth). A held pull reads again after
    /// every wake-up; writing its device's row each time was a row version and a wait on a push
    /// holding the row, for a time nobody reads closer than that.
    static let contact = PostgresStatement("centre_contact", """
        WITH contact AS (
            UPDATE devices SET last_contact = $1::bigint, last_offset_ms = $2::bigint WHERE id = $3 AND credential_hash = $4
                AND \(contactMoved(now: "$1", offset: "$2"))
        )
        \(admitRead)
        """)
    /// A pull's `contact`, which also keeps the cursor the pull comes with (`$5`): the place in the
    /// feed its device has taken, the last answer's end or an older one when that answer was lost.
    /// Written here, with the contact, and never after the read: a woken pull that delivered
    /// entries wrote its cursor in a statement of its own, a second round trip before its answer
    /// (1,171 of them in 500 pushes of the morning at once). Written when the contact is, at its
    /// resolution, so the stored cursor is where the device was at its stored contact: writing it
    /// whenever it moved was a row version for most pulls (2,024 of 2,543 in three mornings at
    /// once, the third most statement time of the database; docs/performance.md, session 53).
    ///
    /// Not while a push of the same device holds its row (`SKIP LOCKED`): that push writes the
    /// contact itself, and the device's next pull the cursor. A pull admitted while its device's
    /// push was being written waited for that push's commit — with pushes taken in groups, for the
    /// whole group's (1.3 ms at the mean in the morning at once, the most time of any statement).
    static let pullContact = PostgresStatement("centre_pull_contact", """
        WITH contact AS (
            UPDATE devices SET last_contact = $1::bigint, last_offset_ms = $2::bigint, cursor = $5::bigint
            WHERE id = (SELECT id FROM devices WHERE id = $3 AND credential_hash = $4
                        AND \(contactMoved(now: "$1", offset: "$2")) FOR UPDATE SKIP LOCKED)
        )
        \(admitRead)
        """)
    /// The condition under which a device's contact is written (`contact`, `pullContact`, `feedRead`), with the
    /// hub's time and the clock offset as the parameters named.
    static func contactMoved(now: String, offset: String) -> String {
        """
        (last_contact IS NULL OR last_contact <= \(now)::bigint - \(CentreStore.contactResolutionMilliseconds) OR last_contact > \(now)::bigint
             OR last_offset_ms IS NULL OR abs(last_offset_ms - \(offset)::bigint) >= 500)
        """
    }
    /// What a push leaves of its device: the last sequence number taken and its own children.
    static let acknowledge = PostgresStatement("centre_acknowledge", """
        UPDATE devices SET acknowledged = $1, children = $2::jsonb WHERE id = $3
        """)
    /// A group's devices' rows held, in the order a group change holds its devices' (`CentreStore.pushGroup`).
    static let lockDevices = PostgresStatement("centre_lock_devices", "SELECT 1 FROM devices WHERE id = ANY ($1::text[]) ORDER BY id FOR UPDATE")
    /// `acknowledge` for every device of a group (`CentreStore.acknowledgeAll`).
    static let acknowledgeAll = PostgresStatement("centre_acknowledge_all", CentreStore.acknowledgeAll)
    /// A nudge to every hub process's listener at the commit (`CentreStore.nudge`): the channel,
    /// the children's ids comma-separated, or "" for everyone.
    static let notify = PostgresStatement("centre_notify", "SELECT pg_notify($1, $2)")
    /// A notification for each payload of a `text[]`, in their order.
    static let notifyAll = PostgresStatement("centre_notify_all", "SELECT pg_notify($1, p) FROM unnest($2::text[]) WITH ORDINALITY AS t(p, n) ORDER BY n")
    /// The advisory lock a push that names or archives a child holds (`CentreStore.namesLockKey`).
    static let namesLock = PostgresStatement("centre_names_lock", "SELECT pg_advisory_xact_lock($1)")
    /// The feed's newest position and where it was forgotten through, in one snapshot.
    static let head = PostgresStatement("centre_head", """
        SELECT COALESCE((SELECT MAX(position) FROM feed), 0), forgotten_through FROM hub_state WHERE id = 'singleton'
        """)
    /// A pull's read of the feed in one statement, one snapshot (`CentreStore.feedRead`): the
    /// device's contact and cursor written as `pullContact` writes them (not while a push holds its row), the device's row (when the credential's
    /// hash is its), the feed's head and where it was forgotten through, and its entries after the
    /// cursor (each child's from `feed_by_child` in order, merged; not the device's own, at most
    /// the limit), of its own and its group's children, in position order
    /// one a line (`jsonb` text has no line break of its own), with the last position and their
    /// count. No row: not admitted.
    static let feedRead = PostgresStatement("centre_feed_read", """
        WITH contact AS (
            UPDATE devices SET last_contact = $3::bigint, last_offset_ms = $4::bigint, cursor = $5::bigint
            WHERE id = (SELECT id FROM devices WHERE id = $1 AND credential_hash = $2
                        AND \(contactMoved(now: "$3", offset: "$4")) FOR UPDATE SKIP LOCKED)
            RETURNING 1
        ), device AS (
            SELECT d.children, d.needs_copy,
                   COALESCE((SELECT jsonb_agg(g.child) FROM group_children g WHERE g.group_id = d.group_id), '[]') AS grouped
            FROM devices d WHERE d.id = $1 AND d.credential_hash = $2
        ), head AS (
            SELECT COALESCE((SELECT MAX(position) FROM feed), 0) AS position, forgotten_through FROM hub_state WHERE id = 'singleton'
        ), found AS (
            SELECT f.position, f.entry FROM device, head,
                LATERAL (SELECT jsonb_array_elements_text(device.children) UNION SELECT jsonb_array_elements_text(device.grouped)) AS k(child)
            CROSS JOIN LATERAL (
                SELECT position, entry FROM feed
                WHERE feed.child = k.child AND position > $5::bigint AND position <= head.position AND origin <> $1
                ORDER BY position LIMIT $6::bigint
            ) AS f
            ORDER BY f.position LIMIT $6::bigint
        )
        SELECT device.children::text, device.grouped::text, device.needs_copy, head.position, head.forgotten_through,
               COALESCE((SELECT string_agg(entry::text, E'\\n' ORDER BY position) FROM found), ''),
               (SELECT max(position) FROM found), (SELECT count(*) FROM found)
        FROM device, head
        """)
    /// A process's read of the feed for its tail (`CentreStore.feedAfter`), one snapshot: the
    /// newest position, where the feed was forgotten through, and the entries after `$1` (at most
    /// `$2`, from the primary key in order) one a line, `position TAB origin TAB entry`, with their count.
    static let feedAfter = PostgresStatement("centre_feed_after", """
        WITH found AS (SELECT position, origin, entry FROM feed WHERE position > $1::bigint ORDER BY position LIMIT $2::bigint)
        SELECT COALESCE((SELECT MAX(position) FROM feed), 0), forgotten_through,
               COALESCE((SELECT string_agg(position::text || E'\\t' || origin || E'\\t' || entry::text, E'\\n' ORDER BY position) FROM found), ''),
               (SELECT count(*) FROM found)
        FROM hub_state WHERE id = 'singleton'
        """)
    /// Last writer wins by hybrid timestamp: stamps compare as their wire text, byte by byte
    /// (`COLLATE "C"`, as SQLite compares them), never by a locale's collation.
    static let register = PostgresStatement("centre_register", """
        INSERT INTO registers (entity, record, field, child, value, stamp) VALUES ($1, $2, $3, $4, $5::jsonb, $6)
        ON CONFLICT (entity, record, field) DO UPDATE SET value = excluded.value, stamp = excluded.stamp
        WHERE excluded.stamp COLLATE "C" > registers.stamp COLLATE "C"
        """)
    static let feed = PostgresStatement("centre_feed", "INSERT INTO feed (origin, child, taken_at, entry) VALUES ($1, $2, $3, $4::jsonb)")
    /// A push's registers (`CentreStore.registersStep`): a `jsonb` array of
    /// `[entity, record, field, child, value, stamp]`, one per field, in key order; returns the
    /// fields taken (new, or later than what the hub held).
    static let registers = PostgresStatement("centre_registers", """
        INSERT INTO registers (entity, record, field, child, value, stamp)
        SELECT r->>0, r->>1, r->>2, r->>3, r->4, r->>5 FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS t(r, n) ORDER BY n
        ON CONFLICT (entity, record, field) DO UPDATE SET value = excluded.value, stamp = excluded.stamp
        WHERE excluded.stamp COLLATE "C" > registers.stamp COLLATE "C"
        RETURNING entity, record, field
        """)
    /// A push's events, from its feed rows (`CentreStore.feedRows`: a `jsonb` array of `[child,
    /// origin, entry]`, an event's entry `{"event": {…}}` as the protocol writes it, `shownTitle`
    /// and `shownIcon` absent when not shown), inserted in the byte order of their ids (two pushes
    /// of one event wait for each other in the same order, never crosswise); of one id sent twice,
    /// the first in the rows is taken.
    static let events = PostgresStatement("centre_events", """
        INSERT INTO events (id, child, routine, set_id, date, kind, at, stamp, shown_title, shown_icon)
        SELECT e->>'id', e->>'child', e->>'routine', e->>'set', e->>'date', e->>'kind', e->>'at', e->>'stamp', e->'shownTitle', e->'shownIcon'
        FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS t(f, n) CROSS JOIN LATERAL (SELECT f->2->'event') AS x(e)
        WHERE e IS NOT NULL
        ORDER BY e->>'id' COLLATE "C", n
        ON CONFLICT (id) DO NOTHING
        """)
    /// A push's end (`CentreStore.push`): the `hub_state` row locked by the update that moves
    /// the hub's clock to the push's latest stamp (wall, counter) when it is later, then the feed
    /// rows (`CentreStore.feedRows`: a `jsonb` array of `[child, origin, entry]`) inserted after it, in
    /// its order, returning their positions. The insert reads the update's row, so its positions are taken only once the
    /// lock is held; the sort makes every row wait for it.
    static let clockAndFeed = PostgresStatement("centre_clock_and_feed", """
        WITH clock AS (
            UPDATE hub_state SET
                clock_wall = CASE WHEN ($1::bigint, $2::bigint) > (clock_wall, clock_counter) THEN $1::bigint ELSE clock_wall END,
                clock_counter = CASE WHEN ($1::bigint, $2::bigint) > (clock_wall, clock_counter) THEN $2::bigint::integer ELSE clock_counter END
            WHERE id = 'singleton' RETURNING id
        )
        INSERT INTO feed (origin, child, taken_at, entry)
        SELECT f->>1, f->>0, $3::bigint, f->2 FROM clock, jsonb_array_elements($4::jsonb) WITH ORDINALITY AS t(f, n) ORDER BY n
        RETURNING position
        """)
    /// The owner (child) of each `[entity, record]` in a `jsonb` array that the hub knows.
    static let owners = PostgresStatement("centre_owners", """
        SELECT k->>0, k->>1, o.child FROM jsonb_array_elements($1::jsonb) AS k
        CROSS JOIN LATERAL (SELECT child FROM registers WHERE entity = k->>0 AND record = k->>1 LIMIT 1) AS o
        """)
    /// A shown (not archived) child's name, as its register keeps it; no row otherwise.
    static let shownChildName = PostgresStatement("centre_shown_child_name", """
        SELECT n.value::text FROM registers n
        WHERE n.entity = 'child' AND n.record = $1 AND n.field = 'name' AND NOT EXISTS (
            SELECT 1 FROM registers a WHERE a.entity = 'child' AND a.record = n.record AND a.field = 'archived' AND a.value = 'true'::jsonb)
        """)
    /// Whether another shown child has a name of that key (`CentreStore.childNameTaken`).
    static let childNameTaken = PostgresStatement("centre_child_name_taken", CentreStore.childNameTaken)
    /// When the oldest entry the feed keeps was taken (`feed_by_time`'s first key), NULL when empty.
    static let oldestTaken = PostgresStatement("centre_oldest_taken", "SELECT MIN(taken_at) FROM feed")
    static let position = PostgresStatement("centre_position", "SELECT COALESCE(MAX(position), 0) FROM feed")
}
