extension HubSchema {
    /// Children's names by their key (docs/centre.md, "A child's name taken twice"): the name's
    /// text (a name that is not a JSON string counts as empty, as the hub reads it) with ASCII
    /// letters folded, as SQLite's `NOCASE` folds them on the household hub. A push that names a
    /// child looked through every shown child's name (1,000 of them, 4-8 ms, holding the lock
    /// that takes such pushes one at a time: a district's joins would queue behind it); now each
    /// name is one look-up. `Statements.childNameTaken` writes the same expression.
    static let v8ChildNames = PostgresMigration("2026-12-hub-v8-child-names", [
        """
        CREATE INDEX registers_child_names ON registers ((translate(CASE WHEN jsonb_typeof(value) = 'string' THEN value #>> '{}' ELSE '' END,
            'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz'))) WHERE entity = 'child' AND field = 'name'
        """,
    ])
}
