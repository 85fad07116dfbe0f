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

/// The hub's side of photos' and recordings' content (docs/sync.md, "Photos and recordings"):
/// bytes named by their SHA-256, stored once. A hub that keeps no content answers as if it had none.
package protocol SyncBlobHandling: Sendable {
    /// Whether the hub holds the bytes (`HEAD`): a device asks before sending them.
    func hasBlob(_ sha256: String, credential: String) throws(SyncRefusal) -> Bool
    /// The bytes, when the hub holds them and a register of one of the device's children names
    /// them; nil otherwise (answered 404, as if absent).
    func blob(_ sha256: String, credential: String) throws(SyncRefusal) -> [UInt8]?
    /// Checks and stores the bytes under their hash (nothing is stored when they are refused).
    /// True when they were stored now, false when the hub had them already.
    func putBlob(_ sha256: String, bytes: [UInt8], credential: String) throws(SyncRefusal) -> Bool
}

/// The household hub's fresh copies as files (docs/sync.md, "A fresh copy as one file"). A hub
/// that makes none (the centre's) has no such route: its copies come in pages.
package protocol SyncCopyHandling: Sendable {
    /// Up to `CopyFile.chunkBytes` of the copy file `name` from `offset`, when it was made for the
    /// device of `credential`; nil otherwise (answered 404, as if absent).
    func copyChunk(_ name: String, offset: UInt64, credential: String) throws(SyncRefusal) -> [UInt8]?
}
