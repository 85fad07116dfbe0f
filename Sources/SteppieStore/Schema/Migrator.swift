/// One schema change, registered by id. Shipped migrations are never edited.
public struct Migration: Sendable {
    public let id: String
    public let sql: String
}

/// Applies migrations in order, each in its own transaction, recording each id once applied.
public struct Migrator: Sendable {
    public let migrations: [Migration]

    public init(_ migrations: [Migration] = Schema.migrations) { self.migrations = migrations }

    /// Ids already applied to `db`, in application order.
    public func applied(_ db: Connection) throws -> [String] {
        try db.execute("""
            CREATE TABLE IF NOT EXISTS schema_migrations (
                id TEXT PRIMARY KEY NOT NULL, applied_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')))
            """)
        return try db.query("SELECT id FROM schema_migrations ORDER BY rowid") { $0.text(0) }
    }

    /// Brings `db` to the latest schema. Unknown applied ids (a newer program's database) are refused.
    public func migrate(_ db: Connection) throws {
        let done = try applied(db)
        let known = Set(migrations.map(\.id))
        if let foreign = done.first(where: { !known.contains($0) }) {
            throw StoreError.newerSchema(migrationId: foreign)
        }
        for migration in migrations where !done.contains(migration.id) {
            try db.transaction {
                // Re-check inside the write lock: another process may have migrated meanwhile.
                let already = try db.queryFirst("SELECT 1 FROM schema_migrations WHERE id = ?", [.text(migration.id)]) { _ in true } ?? false
                if already { return }
                try db.execute(migration.sql)
                try db.run("INSERT INTO schema_migrations (id) VALUES (?)", [.text(migration.id)])
                try db.execute("PRAGMA user_version = \(migrations.firstIndex { $0.id == migration.id }.map { $0 + 1 } ?? 0)")
            }
        }
    }
}
