import SteppieSync

/// What a hub does with each message (the SQLite hub of `steppie serve --hub`, the PostgreSQL
/// hub, the tests' hub on `HubFeed`). Called on the request's own connection thread: a pull may
/// be held there until something is new or its `waitMilliseconds` pass, holding up nothing else.
/// Every refusal leaves the hub's data unchanged.
package protocol SyncHubHandling: Sendable {
    /// `credential`: the bearer token the request carried (which device it is, the hub decides).
    func push(_ request: PushRequest, credential: String) throws(SyncRefusal) -> PushReply
    func pull(_ request: PullRequest, credential: String) throws(SyncRefusal) -> PullReply
    func join(_ request: JoinRequest) throws(SyncRefusal) -> JoinReply
}
