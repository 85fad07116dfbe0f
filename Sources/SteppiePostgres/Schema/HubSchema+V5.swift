extension HubSchema {
    /// The feed by child (issue 28, docs/centre.md "A pull's read"): a pull reads each of its
    /// device's children's entries after its cursor from this index, instead of every entry after
    /// the cursor filtered by child. With 500 devices pulling through a morning, each pull walked
    /// every entry since its cursor (thousands) for the few of its four children: most of the
    /// database's time.
    static let v5FeedByChild = PostgresMigration("2026-12-hub-v5-feed-by-child", [
        "CREATE INDEX feed_by_child ON feed (child, position)",
    ])
}
