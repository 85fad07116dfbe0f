import SteppieCore

/// How a completion event is kept compactly in `sync_event_log` (schema v12, docs/data-contract.md
/// "Sync metadata") and read back in its protocol form: plain SQL expressions, so the triggers,
/// the hub's bulk baseline, the apply path and the `sync_events` view encode and decode the same
/// way, and any program's write through the triggers (the sqlite3 tool) is kept the same too.
///
/// A row is keyed `(target, day, hi, lo)`: `target` names the event's (routine, set, child) in
/// `sync_event_targets`, `day` is the date as a day number since 1970-01-01, `hi`/`lo` are the
/// id's 128 bits as two signed 64-bit integers. `kind` is 0…3, `at` the local clock's
/// milliseconds after the day began (`at_ms`) and the UTC offset in minutes (`at_offset`), the
/// stamp `(wall, counter, origin)` with `origin` in `sync_event_origins`, and the shown title and
/// icon a `look` in `sync_event_looks` (`''` for a missing one; no look when both are missing).
/// Any value that would not come back exactly as it went in (an id that is not a lowercase UUID,
/// a date or an instant in another form) is kept as its text in the same column instead.
enum SyncEventSQL {
    static let kinds = ["press", "undo", "correctDone", "correctUndone"]

    // MARK: Encoding (each applied to an SQL expression of the protocol form)

    private static let hex = "'0123456789abcdef'"
    private static let uuidGlob: String = {
        let digit = "[0-9a-f]"
        return "'" + [8, 4, 4, 4, 12].map { String(repeating: digit, count: $0) }.joined(separator: "-") + "'"
    }()
    private static let dateGlob = "'[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]'"

    /// The value of the hex digit at 1-based position `at` of `text`.
    private static func nibble(_ text: String, _ at: Int) -> String {
        "(instr(\(hex), substr(\(text), \(at), 1)) - 1)"
    }

    /// The 16 hex digits of `text` at `positions` as a signed 64-bit integer (two's complement:
    /// the top digit counts negative from 8), computed without overflowing.
    private static func word(_ text: String, _ positions: [Int]) -> String {
        let top = nibble(text, positions[0])
        var terms = ["(CASE WHEN \(top) >= 8 THEN \(top) - 16 ELSE \(top) END) * 1152921504606846976"]
        for (i, position) in positions.enumerated().dropFirst() {
            terms.append("\(nibble(text, position)) * \(Int64(1) << Int64(4 * (15 - i)))")
        }
        return "(" + terms.joined(separator: " + ") + ")"
    }

    /// Where the id's first and second 16 hex digits are in its text (`8-4-4-4-12`).
    private static let hiDigits = Array(1...8) + Array(10...13) + Array(15...18)
    private static let loDigits = Array(20...23) + Array(25...36)

    /// The id's first half (or the id's text when it is not a lowercase UUID).
    static func hi(_ id: String) -> String {
        "(CASE WHEN \(id) GLOB \(uuidGlob) THEN \(word(id, hiDigits)) ELSE \(id) END)"
    }

    /// The id's second half (0 when the id is kept as text).
    static func lo(_ id: String) -> String {
        "(CASE WHEN \(id) GLOB \(uuidGlob) THEN \(word(id, loDigits)) ELSE 0 END)"
    }

    /// The day number of a `YYYY-MM-DD` date (or the text, for a date that would not come back the same).
    static func day(_ date: String) -> String {
        let number = "CAST(julianday(\(date)) - 2440587.5 AS INTEGER)"
        return "(CASE WHEN \(date) GLOB \(dateGlob) AND date(\(number) + 2440587.5) IS \(date) THEN \(number) ELSE \(date) END)"
    }

    static func kind(_ kind: String) -> String {
        "(CASE \(kind) " + kinds.enumerated().map { "WHEN '\($1)' THEN \($0)" }.joined(separator: " ") + " END)"
    }

    /// `at` (`YYYY-MM-DDTHH:mm:ss.fff±HH:mm`) as the local clock's milliseconds after the start of
    /// `day` (an encoded day).
    private static func atMilliseconds(_ at: String, day: String) -> String {
        "(strftime('%s', substr(\(at), 1, 19)) * 1000 + CAST(substr(\(at), 21, 3) AS INTEGER) - \(day) * 86400000)"
    }

    private static func atOffset(_ at: String) -> String {
        "((CASE substr(\(at), 24, 1) WHEN '-' THEN -1 ELSE 1 END) * (CAST(substr(\(at), 25, 2) AS INTEGER) * 60 + CAST(substr(\(at), 28, 2) AS INTEGER)))"
    }

    /// Whether `at` comes back the same from its milliseconds and offset (what `instant` writes):
    /// the canonical form, a real date and time from 1970 on, and no `-00:00`.
    private static func atKept(_ at: String, day: String) -> String {
        """
        (typeof(\(day)) = 'integer' AND \(at) GLOB \(instantGlob) AND substr(\(at), 1, 4) >= '1970'
            AND substr(\(at), 24, 6) <> '-00:00' AND datetime(substr(\(at), 1, 19)) IS replace(substr(\(at), 1, 19), 'T', ' '))
        """
    }

    private static let instantGlob = "'[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-5][0-9].[0-9][0-9][0-9][+-][0-9][0-9]:[0-5][0-9]'"

    /// `at_ms`: the milliseconds, or the text of an instant in another form.
    static func atMs(_ at: String, day: String) -> String {
        "(CASE WHEN \(atKept(at, day: day)) THEN \(atMilliseconds(at, day: day)) ELSE \(at) END)"
    }

    /// `at_offset`: the offset in minutes, or NULL when `at_ms` keeps the text.
    static func atOffsetColumn(_ at: String, day: String) -> String {
        "(CASE WHEN \(atKept(at, day: day)) THEN \(atOffset(at)) END)"
    }

    // MARK: Decoding (each applied to the stored columns)

    static func idText(hi: String, lo: String) -> String {
        """
        (CASE WHEN typeof(\(hi)) = 'integer' THEN printf('%08x-%04x-%04x-%04x-%012x', (\(hi) >> 32) & 4294967295, (\(hi) >> 16) & 65535,
            \(hi) & 65535, (\(lo) >> 48) & 65535, \(lo) & 281474976710655) ELSE \(hi) END)
        """
    }

    static func dateText(_ day: String) -> String {
        "(CASE WHEN typeof(\(day)) = 'integer' THEN date(\(day) + 2440587.5) ELSE \(day) END)"
    }

    static func kindText(_ code: String) -> String {
        "(CASE \(code) " + kinds.enumerated().map { "WHEN \($0) THEN '\($1)'" }.joined(separator: " ") + " END)"
    }

    /// The instant's text from an encoded day, milliseconds and offset.
    private static func instant(day: String, ms: String, offset: String) -> String {
        let total = "(\(day) * 86400000 + \(ms))"
        return """
            (strftime('%Y-%m-%dT%H:%M:%S', \(total) / 1000, 'unixepoch') || printf('.%03d%s%02d:%02d', \(total) % 1000,
                CASE WHEN \(offset) < 0 THEN '-' ELSE '+' END, abs(\(offset)) / 60, abs(\(offset)) % 60))
            """
    }

    static func atText(day: String, ms: String, offset: String) -> String {
        "(CASE WHEN typeof(\(ms)) = 'integer' THEN \(instant(day: day, ms: ms, offset: offset)) ELSE \(ms) END)"
    }

    /// The protocol form's columns `id, child, routine, set_id, date, kind, at, stamp, shown_title,
    /// shown_icon` of a row `e` of `sync_event_log` joined to its target `t`, origin `g` and look `k`.
    static func columns(e: String = "e", t: String = "t", g: String = "g", k: String = "k") -> String {
        """
        \(idText(hi: "\(e).hi", lo: "\(e).lo")), \(t).child, \(t).routine, \(t).set_id, \(dateText("\(e).day")),
            \(kindText("\(e).kind")), \(atText(day: "\(e).day", ms: "\(e).at_ms", offset: "\(e).at_offset")),
            printf('%015d-%08x-%s', \(e).wall, \(e).counter, \(g).device), NULLIF(\(k).title, ''), NULLIF(\(k).icon, '')
        """
    }

    /// `sync_event_log e` with its target, origin and look.
    static let joined = """
        sync_event_log e JOIN sync_event_targets t ON t.id = e.target JOIN sync_event_origins g ON g.id = e.origin
            LEFT JOIN sync_event_looks k ON k.id = e.look
        """

    // MARK: Writing

    /// The statements that keep every event of `source` (a SELECT of `id, child, routine, set_id,
    /// date, kind, at, shown_title, shown_icon, w, c, d`: the protocol form with the stamp as wall,
    /// counter and device), an event already kept (same routine, day and id) left as it is. The
    /// last statement's changes are the events kept now. `dictionary` is a lighter SELECT of the
    /// same rows' `routine, set_id, child, shown_title, shown_icon, d` for the targets, looks and
    /// origins (the source itself when nil).
    static func insert(from source: String, dictionary: String? = nil) -> [String] {
        let names = dictionary ?? source
        return [
            """
            INSERT INTO sync_event_targets (routine, set_id, child) SELECT DISTINCT routine, set_id, child FROM (\(names)) WHERE true
            ON CONFLICT DO NOTHING
            """,
            """
            INSERT INTO sync_event_looks (title, icon) SELECT DISTINCT COALESCE(shown_title, ''), COALESCE(shown_icon, '') FROM (\(names))
            WHERE shown_title IS NOT NULL OR shown_icon IS NOT NULL ON CONFLICT DO NOTHING
            """,
            """
            INSERT INTO sync_event_origins (device) SELECT DISTINCT d FROM (\(names)) WHERE true
            ON CONFLICT DO NOTHING
            """,
            """
            INSERT INTO sync_event_log (target, day, hi, lo, kind, at_ms, at_offset, wall, counter, origin, look)
            SELECT t.id, x.dc, \(hi("x.id")), \(lo("x.id")), \(kind("x.kind")), \(atMs("x.at", day: "x.dc")),
                \(atOffsetColumn("x.at", day: "x.dc")), x.w, x.c, g.id, k.id
            FROM (SELECT *, \(day("date")) AS dc FROM (\(source))) AS x
            JOIN sync_event_targets t ON t.routine = x.routine AND t.set_id = x.set_id AND t.child = x.child
            JOIN sync_event_origins g ON g.device = x.d
            LEFT JOIN sync_event_looks k ON (x.shown_title IS NOT NULL OR x.shown_icon IS NOT NULL)
                AND k.title = COALESCE(x.shown_title, '') AND k.icon = COALESCE(x.shown_icon, '')
            WHERE true ON CONFLICT DO NOTHING
            """,
        ]
    }

    /// One event's source, its values bound as `?1`…`?12` (the apply path).
    static let boundSource = """
        SELECT ?1 AS id, ?2 AS child, ?3 AS routine, ?4 AS set_id, ?5 AS date, ?6 AS kind, ?7 AS at, ?8 AS shown_title,
            ?9 AS shown_icon, ?10 AS w, ?11 AS c, ?12 AS d
        """
}

/// The decoding of `SyncEventSQL` done in Swift, byte for byte the text its SQL gives (the copy's
/// fold reads a million events: SQLite's `printf` and `strftime` per event were a second or two).
/// `SyncEventStorageTests` compares both on random values.
enum SyncEventText {
    private static let digits = Array("0123456789abcdef".utf8)

    /// `idText`: the id's 128 bits (two signed 64-bit halves) as a lowercase UUID's text.
    static func id(hi: Int64, lo: Int64) -> String {
        String(unsafeUninitializedCapacity: 36) { out in
            var at = 0
            for nibble in 0..<32 {
                if nibble == 8 || nibble == 12 || nibble == 16 || nibble == 20 {
                    out[at] = UInt8(ascii: "-")
                    at += 1
                }
                let word = UInt64(bitPattern: nibble < 16 ? hi : lo)
                out[at] = digits[Int((word >> UInt64(60 - 4 * (nibble % 16))) & 0xF)]
                at += 1
            }
            return at
        }
    }

    /// `atText` of an instant kept as numbers: the local clock's milliseconds since 1970 (`day *
    /// 86400000 + at_ms`, never negative for a kept instant) and the UTC offset in minutes, as
    /// `YYYY-MM-DDTHH:mm:ss.fff±HH:mm`.
    static func instant(localMilliseconds total: Int64, offsetMinutes offset: Int64) -> String {
        let seconds = total / 1000, milliseconds = Int(total % 1000)
        let date = LocalDay(dayNumber: Int(seconds / 86_400))
        let (year, month, day) = (date.year, date.month, date.day)
        let second = Int(seconds % 86_400)
        let minutes = Int(abs(offset))
        return String(unsafeUninitializedCapacity: 29) { out in
            var at = 0
            func put(_ value: Int, _ width: Int) {
                var v = value
                for i in stride(from: width - 1, through: 0, by: -1) {
                    out[at + i] = UInt8(48 + v % 10)
                    v /= 10
                }
                at += width
            }
            func char(_ c: Character) {
                out[at] = c.asciiValue ?? 0
                at += 1
            }
            put(Int(year), 4); char("-"); put(month, 2); char("-"); put(day, 2); char("T")
            put(second / 3600, 2); char(":"); put(second % 3600 / 60, 2); char(":"); put(second % 60, 2); char(".")
            put(milliseconds, 3); char(offset < 0 ? "-" : "+"); put(minutes / 60, 2); char(":"); put(minutes % 60, 2)
            return at
        }
    }
}
