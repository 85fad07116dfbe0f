extension Store {
    /// Every row of every table as text, in a stable order: for comparing a database before and
    /// after a refused change, and for round-trip checks.
    public func dump() throws -> String {
        try read {
            // A table without rowid (`sync_event_log`) is read along its primary key.
            let tables = try db.query("""
                SELECT s.name, l.wr FROM sqlite_schema s JOIN pragma_table_list l ON l.name = s.name AND l.schema = 'main'
                WHERE s.type = 'table' AND s.name NOT LIKE 'sqlite_%' ORDER BY s.name
                """) { ($0.text(0), $0.bool(1)) }
            var out = ""
            for (table, withoutRowid) in tables {
                out += "# \(table)\n"
                let rows = try db.query("SELECT * FROM \"\(table)\"\(withoutRowid ? "" : " ORDER BY rowid")") { row in
                    (0..<row.columnCount).map { i -> String in
                        switch row.value(i) {
                        case .null: return "NULL"
                        case .integer(let v): return String(v)
                        case .real(let v): return String(v)
                        case .text(let v): return "'" + v.replacingOccurrences(of: "'", with: "''") + "'"
                        }
                    }.joined(separator: "|")
                }
                out += rows.joined(separator: "\n") + "\n"
            }
            return out
        }
    }

    /// `PRAGMA integrity_check` and `PRAGMA foreign_key_check`: empty when the file is sound.
    public func integrityProblems() throws -> [String] {
        try read {
            let integrity = try db.query("PRAGMA integrity_check") { $0.text(0) }.filter { $0 != "ok" }
            let foreign = try db.query("PRAGMA foreign_key_check") { "foreign key: \($0.text(0)) rowid \($0.text(1)) -> \($0.text(2))" }
            return integrity + foreign
        }
    }
}
