/// A statement prepared once per connection under its name (`PQprepare`), then run by name
/// (`PQexecPrepared`): the SQL is parsed and planned once, parameters always sent apart.
package struct PostgresStatement: Hashable, Sendable {
    package let name: String
    package let sql: String

    package init(_ name: String, _ sql: String) {
        self.name = name
        self.sql = sql
    }
}
