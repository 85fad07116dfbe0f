/// One step of a PostgreSQL schema, registered by id and never edited once shipped: a later
/// change is a new migration. Its statements run one by one (each through the checking helper,
/// so none may hold two commands) inside the migration's own transaction.
package struct PostgresMigration: Sendable {
    package let id: String
    package let statements: [String]

    package init(_ id: String, _ statements: [String]) {
        self.id = id
        self.statements = statements
    }
}
