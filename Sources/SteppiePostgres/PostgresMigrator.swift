/// Runs a schema's migrations in order, each in its own transaction, recording each applied id in
/// `steppie_migrations`. Several processes may start at once: every step holds a transaction-level
/// advisory lock, so one applies a migration and the others find it recorded. A database that
/// records an id this list does not know was migrated by a newer Steppie and is refused untouched.
package struct PostgresMigrator: Sendable {
    package let migrations: [PostgresMigration]

    /// The advisory lock every migration step takes ("Steppie1" in ASCII).
    static let lockKey: Int64 = 0x5374_6570_7069_6531

    package init(_ migrations: [PostgresMigration]) {
        self.migrations = migrations
    }

    /// Applies the migrations not yet recorded, in order; the ids it applied (none: nothing changed).
    @discardableResult
    package func migrate(_ connection: PostgresConnection) throws -> [String] {
        try connection.transaction { c in
            try lock(c)
            try c.run("""
                CREATE TABLE IF NOT EXISTS steppie_migrations (
                    id text PRIMARY KEY,
                    applied_at timestamptz NOT NULL DEFAULT now()
                )
                """)
            _ = try pending(c)
        }
        var applied: [String] = []
        for migration in migrations {
            let ran = try connection.transaction { c -> Bool in
                try lock(c)
                guard try pending(c).contains(migration.id) else { return false }
                for statement in migration.statements {
                    try c.run(statement)
                }
                try c.run("INSERT INTO steppie_migrations (id) VALUES ($1)", [.text(migration.id)])
                return true
            }
            if ran { applied.append(migration.id) }
        }
        return applied
    }

    /// The ids recorded in the database, in the order they were applied.
    package func recorded(_ connection: PostgresConnection) throws -> [String] {
        try connection.query("SELECT id FROM steppie_migrations ORDER BY applied_at, id") { try $0.text(0) }
    }

    private func lock(_ c: PostgresConnection) throws {
        try c.run("SELECT pg_advisory_xact_lock($1)", [.integer(Self.lockKey)])
    }

    /// The known ids not yet recorded; throws `newerSchema` for a recorded id this list does not know.
    private func pending(_ c: PostgresConnection) throws -> Set<String> {
        let recorded = Set(try self.recorded(c))
        let known = Set(migrations.map(\.id))
        if let unknown = recorded.subtracting(known).sorted().first {
            throw PostgresError.newerSchema(migration: unknown)
        }
        return known.subtracting(recorded)
    }
}
