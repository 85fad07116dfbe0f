extension Schema {
    /// Sync (issue 27, docs/sync.md). Nothing changes for a device that never joins: every trigger
    /// below runs only while a `sync_state` row exists.
    ///
    /// - `sync_state`: this database's side of sync (a device or the hub), its device id, its
    ///   hybrid logical clock, and on a device the hub's address, fingerprint, its credential, the
    ///   cursor in the hub's feed and the next sequence number. `applying` is 1 only inside the
    ///   transaction that applies the hub's (or a device's) entries, so the triggers do not log
    ///   them again.
    /// - `sync_registers`: every synced field's last value (JSON) and the stamp that set it.
    /// - `sync_events`: every press, undo and correction, never changed or removed.
    /// - `sync_outbox` (a device): the entries made here that the hub has not acknowledged, in the
    ///   order they were made; a field edited again before it was sent keeps one entry (the
    ///   latest), and `seq` is given when an entry is first sent, so sequence numbers have no gaps.
    /// - `sync_feed`, `sync_devices`, `sync_invites` (the hub): the entries in the order the hub
    ///   took them, the joined devices (credential kept as a SHA-256 hash) and the joining codes.
    ///
    /// An edit is logged by the triggers in the edit's own transaction: nothing is synced that was
    /// not committed, and nothing committed is missed. The stamp's physical time is SQLite's `now`
    /// moved by `clock_offset_ms`, which every store of ours sets to its own clock at each write.
    static var v10Sync: String {
        """
        CREATE TABLE sync_state (
            id TEXT PRIMARY KEY NOT NULL CHECK (id = 'singleton'),
            role TEXT NOT NULL CHECK (role IN ('device', 'hub')),
            device_id TEXT NOT NULL CHECK (length(device_id) = 36),
            clock_wall INTEGER NOT NULL DEFAULT 0 CHECK (clock_wall >= 0),
            clock_counter INTEGER NOT NULL DEFAULT 0 CHECK (clock_counter BETWEEN 0 AND 16777215),
            applying INTEGER NOT NULL DEFAULT 0 CHECK (applying IN (0, 1)),
            hub_url TEXT,
            hub_fingerprint TEXT,
            hub_device_id TEXT,
            credential TEXT,
            cursor INTEGER NOT NULL DEFAULT 0 CHECK (cursor >= 0),
            copy_after TEXT,
            next_seq INTEGER NOT NULL DEFAULT 1 CHECK (next_seq >= 1),
            clock_refused INTEGER NOT NULL DEFAULT 0 CHECK (clock_refused IN (0, 1)),
            last_refusal TEXT,
            last_contact INTEGER,
            last_offset_ms INTEGER,
            forgotten_through INTEGER NOT NULL DEFAULT 0,
            clock_offset_ms INTEGER NOT NULL DEFAULT 0,
            joined_at TEXT NOT NULL CHECK (joined_at \(stampCheck)),
            CHECK (role = 'hub' OR (hub_url IS NOT NULL AND credential IS NOT NULL))
        ) STRICT;

        CREATE TABLE sync_registers (
            entity TEXT NOT NULL CHECK (entity IN ('child', 'routineSet', 'routine', 'schedule', 'recording')),
            record TEXT NOT NULL,
            field TEXT NOT NULL,
            child TEXT NOT NULL,
            value TEXT NOT NULL CHECK (json_valid(value)),
            stamp TEXT NOT NULL CHECK (length(stamp) = 61),
            PRIMARY KEY (entity, record, field)
        ) STRICT;
        CREATE INDEX sync_registers_by_child ON sync_registers (child);

        CREATE TABLE sync_events (
            id TEXT PRIMARY KEY NOT NULL,
            child TEXT NOT NULL,
            routine TEXT NOT NULL,
            set_id TEXT NOT NULL,
            date TEXT NOT NULL CHECK (date \(dateCheck)),
            kind TEXT NOT NULL CHECK (kind IN ('press', 'undo', 'correctDone', 'correctUndone')),
            at TEXT NOT NULL,
            stamp TEXT NOT NULL CHECK (length(stamp) = 61),
            shown_title TEXT CHECK (shown_title IS NULL OR json_valid(shown_title)),
            shown_icon TEXT CHECK (shown_icon IS NULL OR json_valid(shown_icon))
        ) STRICT;
        CREATE INDEX sync_events_by_day ON sync_events (routine, date);
        CREATE INDEX sync_events_by_child ON sync_events (child);

        CREATE TABLE sync_outbox (
            id INTEGER PRIMARY KEY,
            seq INTEGER UNIQUE,
            entity TEXT,
            record TEXT,
            field TEXT,
            child TEXT NOT NULL,
            value TEXT,
            stamp TEXT NOT NULL,
            event_id TEXT REFERENCES sync_events (id),
            CHECK ((event_id IS NULL) = (entity IS NOT NULL AND value IS NOT NULL))
        ) STRICT;
        CREATE UNIQUE INDEX sync_outbox_unsent ON sync_outbox (entity, record, field) WHERE seq IS NULL AND event_id IS NULL;

        CREATE TABLE sync_feed (
            position INTEGER PRIMARY KEY AUTOINCREMENT,
            origin TEXT NOT NULL,
            child TEXT NOT NULL,
            taken_at INTEGER NOT NULL,
            entry TEXT NOT NULL CHECK (json_valid(entry))
        ) STRICT;
        CREATE INDEX sync_feed_by_time ON sync_feed (taken_at);

        CREATE TABLE sync_devices (
            id TEXT PRIMARY KEY NOT NULL CHECK (length(id) = 36),
            name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 60),
            credential_hash TEXT NOT NULL CHECK (length(credential_hash) = 64),
            children TEXT NOT NULL CHECK (json_valid(children) AND json_type(children) = 'array'),
            acknowledged INTEGER NOT NULL DEFAULT 0,
            needs_copy INTEGER NOT NULL DEFAULT 1 CHECK (needs_copy IN (0, 1)),
            joined_at TEXT NOT NULL CHECK (joined_at \(stampCheck)),
            last_contact INTEGER,
            last_offset_ms INTEGER,
            cursor INTEGER NOT NULL DEFAULT 0
        ) STRICT;

        CREATE TABLE sync_invites (
            id INTEGER PRIMARY KEY,
            code_hash TEXT NOT NULL CHECK (length(code_hash) = 64),
            children TEXT NOT NULL CHECK (json_valid(children) AND json_type(children) = 'array'),
            expires_at INTEGER NOT NULL,
            used INTEGER NOT NULL DEFAULT 0 CHECK (used IN (0, 1))
        ) STRICT;

        CREATE TABLE sync_join_attempts (
            at INTEGER NOT NULL
        ) STRICT;

        CREATE TABLE sync_conflicts (
            id INTEGER PRIMARY KEY,
            at INTEGER NOT NULL,
            entity TEXT NOT NULL,
            record TEXT NOT NULL,
            reason TEXT NOT NULL
        ) STRICT;

        \(syncLoggingSQL)
        """
    }

    /// The physical clock of the triggers: SQLite's `now` (the same for every use within one
    /// statement) in milliseconds, moved by the offset the writing store keeps in `sync_state`
    /// (its clock minus the system's: a device whose routine clock is wrong stamps with it). Plain
    /// SQL, so any program's write to a synced table (the sqlite3 tool) is logged too.
    static let syncNow = "(CAST(ROUND((julianday('now') - 2440587.5) * 86400000.0) AS INTEGER) + (SELECT clock_offset_ms FROM sync_state))"

    /// The hybrid clock's tick, and the stamp it gives, read from `sync_state`.
    static let syncTick = """
        UPDATE sync_state SET (clock_wall, clock_counter) = (SELECT
            CASE WHEN t.ms > sync_state.clock_wall THEN t.ms
                 WHEN sync_state.clock_counter >= 16777215 THEN sync_state.clock_wall + 1 ELSE sync_state.clock_wall END,
            CASE WHEN t.ms > sync_state.clock_wall THEN 0
                 WHEN sync_state.clock_counter >= 16777215 THEN 0 ELSE sync_state.clock_counter + 1 END
            FROM (SELECT \(syncNow) AS ms) AS t)
        """
    static let syncStamp = "printf('%015d-%08x-%s', clock_wall, clock_counter, device_id)"
    static let syncLogging = "EXISTS (SELECT 1 FROM sync_state WHERE applying = 0)"

    /// The views every local write and event goes through, and the triggers on the synced tables.
    static var syncLoggingSQL: String {
        var sql = """
        CREATE VIEW sync_local_writes (entity, record, child, field, value) AS SELECT NULL, NULL, NULL, NULL, NULL WHERE 0;
        CREATE TRIGGER sync_local_write INSTEAD OF INSERT ON sync_local_writes
        BEGIN
            \(syncTick);
            INSERT INTO sync_registers (entity, record, field, child, value, stamp)
                SELECT NEW.entity, NEW.record, NEW.field, NEW.child, NEW.value, \(syncStamp) FROM sync_state WHERE true
                ON CONFLICT (entity, record, field) DO UPDATE SET value = excluded.value, stamp = excluded.stamp, child = excluded.child;
            INSERT INTO sync_outbox (entity, record, field, child, value, stamp)
                SELECT NEW.entity, NEW.record, NEW.field, NEW.child, NEW.value, \(syncStamp) FROM sync_state WHERE role = 'device'
                ON CONFLICT (entity, record, field) WHERE seq IS NULL AND event_id IS NULL
                DO UPDATE SET value = excluded.value, stamp = excluded.stamp, child = excluded.child;
            INSERT INTO sync_feed (origin, child, taken_at, entry)
                SELECT device_id, NEW.child, \(syncNow), json_object('change', json_object('child', NEW.child,
                    'entity', NEW.entity, 'field', NEW.field, 'record', NEW.record, 'stamp', \(syncStamp), 'value', json(NEW.value)))
                FROM sync_state WHERE role = 'hub';
        END;

        CREATE VIEW sync_local_events (id, child, routine, set_id, date, kind, at, shown_title, shown_icon)
            AS SELECT NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL WHERE 0;
        CREATE TRIGGER sync_local_event INSTEAD OF INSERT ON sync_local_events WHEN \(syncLogging)
        BEGIN
            \(syncTick);
            INSERT INTO sync_events (id, child, routine, set_id, date, kind, at, stamp, shown_title, shown_icon)
                SELECT NEW.id, NEW.child, NEW.routine, NEW.set_id, NEW.date, NEW.kind, NEW.at, \(syncStamp),
                    json(NEW.shown_title), json(NEW.shown_icon) FROM sync_state;
            INSERT INTO sync_outbox (child, stamp, event_id)
                SELECT NEW.child, \(syncStamp), NEW.id FROM sync_state WHERE role = 'device';
            INSERT INTO sync_feed (origin, child, taken_at, entry)
                SELECT device_id, NEW.child, \(syncNow), json_object('event', json_object('at', NEW.at, 'child', NEW.child,
                    'date', NEW.date, 'id', NEW.id, 'kind', NEW.kind, 'routine', NEW.routine, 'set', NEW.set_id,
                    'shownIcon', json(NEW.shown_icon), 'shownTitle', json(NEW.shown_title), 'stamp', \(syncStamp)))
                FROM sync_state WHERE role = 'hub';
        END;

        """
        for table in SyncColumns.tables {
            sql += rowTriggers(table)
        }
        // A set's order: whenever a routine is added, moved, shown, hidden or deleted.
        sql += """
        CREATE TRIGGER sync_routines_order_insert AFTER INSERT ON routines WHEN \(syncLogging)
        BEGIN
            INSERT INTO sync_local_writes SELECT 'routineSet', NEW.routine_set_id, (SELECT child_id FROM routine_sets WHERE id = NEW.routine_set_id),
                'order', \(SyncColumns.order(set: "NEW.routine_set_id"));
        END;
        CREATE TRIGGER sync_routines_order_update AFTER UPDATE OF sort_order, is_active, deleted_at, routine_set_id ON routines
        WHEN \(syncLogging) AND (OLD.sort_order IS NOT NEW.sort_order OR OLD.is_active IS NOT NEW.is_active
            OR OLD.deleted_at IS NOT NEW.deleted_at OR OLD.routine_set_id IS NOT NEW.routine_set_id)
        BEGIN
            INSERT INTO sync_local_writes SELECT 'routineSet', NEW.routine_set_id, (SELECT child_id FROM routine_sets WHERE id = NEW.routine_set_id),
                'order', \(SyncColumns.order(set: "NEW.routine_set_id"));
            INSERT INTO sync_local_writes SELECT 'routineSet', OLD.routine_set_id, (SELECT child_id FROM routine_sets WHERE id = OLD.routine_set_id),
                'order', \(SyncColumns.order(set: "OLD.routine_set_id")) WHERE OLD.routine_set_id IS NOT NEW.routine_set_id;
        END;

        CREATE TRIGGER sync_sets_active_insert AFTER INSERT ON routine_sets WHEN \(syncLogging) AND NEW.is_active = 1
        BEGIN
            INSERT INTO sync_local_writes VALUES ('child', NEW.child_id, NEW.child_id, 'activeSet', json_quote(NEW.id));
        END;
        CREATE TRIGGER sync_sets_active_update AFTER UPDATE OF is_active ON routine_sets
        WHEN \(syncLogging) AND NEW.is_active = 1 AND OLD.is_active = 0
        BEGIN
            INSERT INTO sync_local_writes VALUES ('child', NEW.child_id, NEW.child_id, 'activeSet', json_quote(NEW.id));
        END;

        """
        for (event, row) in [("INSERT", "NEW"), ("UPDATE", "NEW"), ("DELETE", "OLD")] {
            sql += """
            CREATE TRIGGER sync_schedules_\(event.lowercased()) AFTER \(event) ON set_schedules WHEN \(syncLogging)
            BEGIN
                INSERT INTO sync_local_writes VALUES ('schedule', \(row).child_id, \(row).child_id, 'slots', \(SyncColumns.schedule(child: "\(row).child_id")));
            END;

            """
        }
        return sql
    }

    /// The insert and update triggers of one synced table: an insert logs every field, an update
    /// the fields whose JSON changed.
    static func rowTriggers(_ table: SyncColumns.Table) -> String {
        let inserted = table.fields.map { "SELECT '\($0.name)' AS f, \($0.json("NEW")) AS v" }.joined(separator: " UNION ALL ")
        let updated = table.fields.map { "SELECT '\($0.name)' AS f, \($0.json("NEW")) AS v, \($0.json("OLD")) AS o" }
            .joined(separator: " UNION ALL ")
        let name = table.table
        return """
        CREATE TRIGGER sync_\(name)_insert AFTER INSERT ON \(name) WHEN \(syncLogging)
        BEGIN
            INSERT INTO sync_local_writes SELECT '\(table.entity.rawValue)', NEW.id, \(table.child("NEW")), f, v FROM (\(inserted));
        END;
        CREATE TRIGGER sync_\(name)_update AFTER UPDATE ON \(name) WHEN \(syncLogging)
        BEGIN
            INSERT INTO sync_local_writes SELECT '\(table.entity.rawValue)', NEW.id, \(table.child("NEW")), f, v FROM (\(updated)) WHERE v IS NOT o;
        END;

        """
    }
}
