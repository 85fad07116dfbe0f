extension Schema {
    /// Completion events kept compactly (issue 27's size target; docs/data-contract.md "Sync
    /// metadata", `SyncEventSQL`): `sync_events` becomes a view of `sync_event_log`, a table
    /// without rowid keyed `(target, day, hi, lo)` (what folding a day and the fresh copy read, so
    /// it needs no second index), with the (routine, set, child) of an event, its stamp's device
    /// and what its card showed each kept once in `sync_event_targets`, `sync_event_origins` and
    /// `sync_event_looks`. Every event is moved over unchanged in its protocol form. The outbox
    /// names an event by that key (`event_target`, `event_day`, and its id), and the trigger that
    /// logs a press, an undo or a correction made here writes the new table.
    static var v12CompactSyncEvents: String {
        let moved = """
            SELECT id, child, routine, set_id, date, kind, at, shown_title, shown_icon, CAST(substr(stamp, 1, 15) AS INTEGER) AS w,
                \(hexCounter("stamp")) AS c, substr(stamp, 26) AS d FROM sync_events
            """
        let local = """
            SELECT NEW.id AS id, NEW.child AS child, NEW.routine AS routine, NEW.set_id AS set_id, NEW.date AS date, NEW.kind AS kind,
                NEW.at AS at, json(NEW.shown_title) AS shown_title, json(NEW.shown_icon) AS shown_icon, clock_wall AS w,
                clock_counter AS c, device_id AS d FROM sync_state
            """
        return """
        DROP TRIGGER sync_local_event;

        CREATE TABLE sync_event_targets (
            id INTEGER PRIMARY KEY,
            routine TEXT NOT NULL,
            set_id TEXT NOT NULL,
            child TEXT NOT NULL,
            UNIQUE (routine, set_id, child)
        ) STRICT;

        CREATE TABLE sync_event_origins (
            id INTEGER PRIMARY KEY,
            device TEXT NOT NULL UNIQUE CHECK (length(device) = 36)
        ) STRICT;

        CREATE TABLE sync_event_looks (
            id INTEGER PRIMARY KEY,
            title TEXT NOT NULL CHECK (title = '' OR json_valid(title)),
            icon TEXT NOT NULL CHECK (icon = '' OR json_valid(icon)),
            UNIQUE (title, icon)
        ) STRICT;

        CREATE TABLE sync_event_log (
            target INTEGER NOT NULL,
            day ANY NOT NULL CHECK (typeof(day) = 'integer' OR day \(dateCheck)),
            hi ANY NOT NULL CHECK (typeof(hi) IN ('integer', 'text')),
            lo INTEGER NOT NULL,
            kind INTEGER NOT NULL CHECK (kind BETWEEN 0 AND 3),
            at_ms ANY NOT NULL CHECK (typeof(at_ms) IN ('integer', 'text')),
            at_offset INTEGER CHECK ((at_offset IS NULL) = (typeof(at_ms) = 'text')),
            wall INTEGER NOT NULL CHECK (wall BETWEEN 0 AND 999999999999999),
            counter INTEGER NOT NULL CHECK (counter BETWEEN 0 AND 4294967295),
            origin INTEGER NOT NULL,
            look INTEGER,
            PRIMARY KEY (target, day, hi, lo)
        ) STRICT, WITHOUT ROWID;

        \(SyncEventSQL.insert(from: moved).joined(separator: ";\n"));

        CREATE TEMP TABLE sync_outbox_moved AS
            SELECT o.id, o.seq, o.entity, o.record, o.field, o.child, o.value, o.stamp, o.event_id,
                (SELECT t.id FROM sync_event_targets t WHERE t.routine = e.routine AND t.set_id = e.set_id AND t.child = e.child) AS event_target,
                CASE WHEN e.id IS NOT NULL THEN \(SyncEventSQL.day("e.date")) END AS event_day
            FROM sync_outbox o LEFT JOIN sync_events e ON e.id = o.event_id;
        DROP TABLE sync_outbox;
        CREATE TABLE sync_outbox (
            id INTEGER PRIMARY KEY,
            seq INTEGER UNIQUE,
            entity TEXT,
            record TEXT,
            field TEXT,
            child TEXT NOT NULL,
            value TEXT,
            stamp TEXT NOT NULL,
            event_id TEXT,
            event_target INTEGER,
            event_day ANY,
            CHECK ((event_id IS NULL) = (entity IS NOT NULL AND value IS NOT NULL)),
            CHECK ((event_id IS NULL) = (event_target IS NULL))
        ) STRICT;
        INSERT INTO sync_outbox (id, seq, entity, record, field, child, value, stamp, event_id, event_target, event_day)
            SELECT id, seq, entity, record, field, child, value, stamp, event_id, event_target, event_day FROM temp.sync_outbox_moved;
        DROP TABLE temp.sync_outbox_moved;
        CREATE UNIQUE INDEX sync_outbox_unsent ON sync_outbox (entity, record, field) WHERE seq IS NULL AND event_id IS NULL;

        DROP TABLE sync_events;
        CREATE VIEW sync_events (id, child, routine, set_id, date, kind, at, stamp, shown_title, shown_icon, target, day, hi, lo) AS
            SELECT \(SyncEventSQL.columns()), e.target, e.day, e.hi, e.lo FROM \(SyncEventSQL.joined);

        CREATE TRIGGER sync_local_event INSTEAD OF INSERT ON sync_local_events WHEN \(syncLogging)
        BEGIN
            \(syncTick);
            \(SyncEventSQL.insert(from: local).joined(separator: ";\n"));
            INSERT INTO sync_outbox (child, stamp, event_id, event_target, event_day)
                SELECT NEW.child, \(syncStamp), NEW.id,
                    (SELECT id FROM sync_event_targets WHERE routine = NEW.routine AND set_id = NEW.set_id AND child = NEW.child),
                    \(SyncEventSQL.day("NEW.date"))
                FROM sync_state WHERE role = 'device';
            INSERT INTO sync_feed (origin, child, taken_at, entry)
                SELECT device_id, NEW.child, \(syncNow), json_object('event', json_object('at', NEW.at, 'child', NEW.child,
                    'date', NEW.date, 'id', NEW.id, 'kind', NEW.kind, 'routine', NEW.routine, 'set', NEW.set_id,
                    'shownIcon', json(NEW.shown_icon), 'shownTitle', json(NEW.shown_title), 'stamp', \(syncStamp)))
                FROM sync_state WHERE role = 'hub';
        END;
        """
    }

    /// The counter of a stamp's text (`<wall>-<counter, 8 hex digits>-<device>`) as an integer.
    static func hexCounter(_ stamp: String) -> String {
        "(" + (0..<8).map { i in
            "(instr('0123456789abcdef', substr(\(stamp), \(17 + i), 1)) - 1) * \(1 << (4 * (7 - i)))"
        }.joined(separator: " + ") + ")"
    }
}
