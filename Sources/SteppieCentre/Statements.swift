import SteppiePostgres

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
