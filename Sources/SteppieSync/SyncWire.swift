import Foundation

/// The sync protocol's messages (version 1, docs/sync.md). A device pushes its own changes and
/// pulls the hub's feed; both hubs (a household's `steppie serve --hub` on SQLite, a centre's
/// `steppie hub` on PostgreSQL) answer the same messages.
package enum SyncProtocol {
    /// Raised when a message's meaning changes; a peer of another version is refused by name.
    package static let version = 1
    /// A device and the hub may disagree this much about the time before the hub waits.
    package static let maxClockOffsetMilliseconds: Int64 = 5 * 60 * 1000
    /// The feed keeps every change this long; a device whose cursor is older gets a fresh copy.
    package static let feedHorizonMilliseconds: Int64 = 180 * 24 * 60 * 60 * 1000
    /// At most this many entries in one push or pull.
    package static let maxBatchEntries = 2000

    /// A message, entry or value as the protocol writes it: keys sorted, slashes as they are (the
    /// same bytes on every side, so digests and golden tests compare them). The hot messages are
    /// written by `SyncWireWriter` (the same bytes, without the generic machinery).
    package static func encode(_ value: some Encodable) -> Data? {
        if let bytes = SyncWireWriter.encode(value) { return Data(bytes) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try? encoder.encode(value)
    }

    /// Whether a pull's `copyAfter` asks for a fresh copy from its start: `""` (a device that has
    /// not taken a whole copy since it joined, whatever its requests' answers met on the way) or a
    /// copy file's mark (`=…`, a file a hub that gives pages knows nothing of). The copy's cursor is
    /// then the feed's position now, as for a copy the hub decided on itself.
    package static func startsCopy(_ copyAfter: String?) -> Bool {
        guard let copyAfter else { return false }
        return copyAfter.isEmpty || copyAfter.hasPrefix("=")
    }

    /// What a hub that gives a fresh copy in pages answers a pull with (docs/sync.md, "A copy is
    /// asked for until it is taken").
    package enum CopyStep: Hashable, Sendable {
        /// No copy: the feed after the request's cursor.
        case feed
        /// A page of a copy after `after` (`""`: its start), the copy being at `cursor`.
        case page(after: String, cursor: UInt64)
        /// The device has taken every page of a copy of the children it holds now, at `cursor`:
        /// the hub's record that its children changed is cleared, and the answer is the copy's
        /// last page, empty (the device folds the copy's days then).
        case taken(cursor: UInt64)
    }

    /// Whether a hub owes a device a fresh copy before the feed: its children changed since its
    /// last whole copy (`needsCopy`), its cursor is older than the feed keeps, or past the feed's
    /// end (the hub was put back in time).
    package static func copyDue(cursor: UInt64, needsCopy: Bool, forgotten: UInt64, position: UInt64) -> Bool {
        needsCopy || cursor < forgotten || cursor > position
    }

    /// Decides a pull against the children the device holds now. `due`: the hub would start a copy
    /// anyway (the device's children changed since its last whole copy, its cursor is older than
    /// the feed keeps or past its end). A page's `copyAfter` carries a seal of the children the
    /// copy is of (`copyAfterPage`): when they changed between two pages the copy starts again
    /// (its earlier pages missed the new child's rows); a key without a seal goes on as it says.
    package static func copyStep(_ copyAfter: String?, cursor: UInt64, children: [String], due: Bool, position: UInt64) -> CopyStep {
        guard let copyAfter else { return due ? .page(after: "", cursor: position) : .feed }
        if startsCopy(copyAfter) { return .page(after: "", cursor: position) }
        guard copyAfter.hasPrefix("#") else { return .page(after: copyAfter, cursor: cursor) }
        let seal = copySeal(children)
        guard copyAfter.utf8.starts(with: seal.utf8) else { return .page(after: "", cursor: position) }
        let rest = copyAfter.utf8.dropFirst(seal.utf8.count)
        if rest.elementsEqual("$".utf8) { return .taken(cursor: cursor) }
        guard rest.first == UInt8(ascii: ":") else { return .page(after: "", cursor: position) }
        return .page(after: String(decoding: rest.dropFirst(), as: UTF8.self), cursor: cursor)
    }

    /// The `copyAfter` a page of a copy answers with: the next page's place when more follow;
    /// after the last page, while the hub still records that the device's children changed
    /// (`due`), a closing mark the device sends back once it has taken every page (a copy
    /// whose answer was lost is then given again, never counted as taken); nil otherwise. The
    /// reply's `more` is whether it is non-nil.
    package static func copyAfterPage(children: [String], lastKey: String?, done: Bool, due: Bool) -> String? {
        if !done, let lastKey { return copySeal(children) + ":" + lastKey }
        return due ? copySeal(children) + "$" : nil
    }

    /// Whether a reply's `copyAfter` is a copy's closing mark: the device sends it back only once
    /// it has applied that reply (never asked for ahead while applying it: the hub counts the copy
    /// taken when it sees the mark, and a device stopped before its apply committed would then
    /// read the feed without the copy).
    package static func closesCopy(_ copyAfter: String?) -> Bool {
        guard let copyAfter else { return false }
        return copyAfter.hasPrefix("#") && copyAfter.hasSuffix("$")
    }

    /// `#` and 16 hex digits of the FNV-1a hash of the children's ids, sorted: what tells a hub
    /// that a device's children changed during its copy (not a secret: a device forging one
    /// only spoils its own copy, which is of its own children whatever the seal says).
    static func copySeal(_ children: [String]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in children.sorted().joined(separator: "\n").utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return "#" + String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// An instant as the protocol counts it: whole milliseconds since 1970.
    package static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
    }
}

/// One entry of a device's own log or of the hub's feed.
package enum SyncEntry: Hashable, Sendable, Codable {
    case change(FieldChange)
    case event(CompletionEvent)

    package var child: String {
        switch self {
        case .change(let c): c.child
        case .event(let e): e.child
        }
    }

    package var stamp: HybridTimestamp {
        switch self {
        case .change(let c): c.stamp
        case .event(let e): e.stamp
        }
    }

    /// A change of a child's own record: the first one a hub takes of a child it has never seen
    /// gives that child to the device that made it.
    package var isChildEntry: Bool {
        if case .change(let c) = self { c.entity == .child } else { false }
    }

    private enum CodingKeys: String, CodingKey { case change, event }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        if let change = try c.decodeIfPresent(FieldChange.self, forKey: .change) {
            guard !c.contains(.event) else {
                throw DecodingError.dataCorruptedError(forKey: .event, in: c, debugDescription: "an entry is a change or an event")
            }
            self = .change(change)
        } else {
            self = .event(try c.decode(CompletionEvent.self, forKey: .event))
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .change(let change): try c.encode(change, forKey: .change)
        case .event(let event): try c.encode(event, forKey: .event)
        }
    }
}

/// A device's entry with its own sequence number: (device, seq) makes every push idempotent.
package struct NumberedEntry: Hashable, Sendable, Codable {
    package let seq: UInt64
    package let entry: SyncEntry

    package init(seq: UInt64, entry: SyncEntry) {
        self.seq = seq
        self.entry = entry
    }
}

/// `POST /sync/v1/push`: the device's entries after the last one the hub acknowledged.
package struct PushRequest: Hashable, Sendable, Codable {
    package let protocolVersion: Int
    package let device: DeviceID
    /// The device's physical clock when it sent this (milliseconds since 1970).
    package let sentAt: Int64
    package let entries: [NumberedEntry]

    package init(protocolVersion: Int = SyncProtocol.version, device: DeviceID, sentAt: Int64, entries: [NumberedEntry]) {
        self.protocolVersion = protocolVersion
        self.device = device
        self.sentAt = sentAt
        self.entries = entries
    }
}

package struct PushReply: Hashable, Sendable, Codable {
    /// Every entry up to this sequence number is in the hub's store of record.
    package let acknowledged: UInt64
    package let hubTime: Int64

    package init(acknowledged: UInt64, hubTime: Int64) {
        self.acknowledged = acknowledged
        self.hubTime = hubTime
    }
}

/// `POST /sync/v1/pull`: the hub's feed after `cursor`.
package struct PullRequest: Hashable, Sendable, Codable {
    package let protocolVersion: Int
    package let device: DeviceID
    package let sentAt: Int64
    package let cursor: UInt64
    /// How long the hub may hold the request open when nothing is new (long poll), 0…25 000 ms.
    package let waitMilliseconds: Int
    /// Continuing a fresh copy: the position after which to go on (from the last reply).
    package let copyAfter: String?

    package init(protocolVersion: Int = SyncProtocol.version, device: DeviceID, sentAt: Int64, cursor: UInt64,
                waitMilliseconds: Int = 0, copyAfter: String? = nil) {
        self.protocolVersion = protocolVersion
        self.device = device
        self.sentAt = sentAt
        self.cursor = cursor
        self.waitMilliseconds = waitMilliseconds
        self.copyAfter = copyAfter
    }
}

package struct PullReply: Hashable, Sendable, Codable {
    /// The feed's entries after the request's cursor for the device's children, oldest first;
    /// the device applies them all or none.
    package let entries: [SyncEntry]
    /// The cursor to ask from next time (the feed position of the last entry looked at).
    package let cursor: UInt64
    /// More entries wait: ask again at once.
    package let more: Bool
    /// The cursor is older than the feed keeps (or the device's children changed): this reply is
    /// a whole copy of the device's children; replace what it holds of them.
    package let freshCopy: Bool
    /// A fresh copy goes on after this position (nil: the copy, or the feed page, is whole).
    package let copyAfter: String?
    /// The children this device holds now: it drops whatever it holds of any other.
    package let children: [String]
    package let hubTime: Int64
    /// A fresh copy given whole as one file instead of in pages (docs/sync.md, "A fresh copy as
    /// one file"): the device fetches it (`GET /sync/v1/copy/<name>/<offset>`, resumable), checks
    /// its length and SHA-256, and applies it as one reply whose cursor is `cursor`. `entries` is
    /// then empty and `copyAfter` names the file (`CopyFile.mark`), so a device stopped before it
    /// applied the file asks for the same one again. A hub that gives no files never sets it.
    package let copyFile: CopyFile?

    package init(entries: [SyncEntry], cursor: UInt64, more: Bool, freshCopy: Bool, copyAfter: String? = nil,
                children: [String], hubTime: Int64, copyFile: CopyFile? = nil) {
        self.entries = entries
        self.cursor = cursor
        self.more = more
        self.freshCopy = freshCopy
        self.copyAfter = copyAfter
        self.children = children
        self.hubTime = hubTime
        self.copyFile = copyFile
    }
}

/// A fresh copy made into one file by the hub (`PullReply.copyFile`).
package struct CopyFile: Hashable, Sendable, Codable {
    /// 32 lowercase hex digits, chosen by the hub.
    package let name: String
    package let bytes: UInt64
    /// The SHA-256 of the whole file, lowercase hex.
    package let sha256: String

    package init(name: String, bytes: UInt64, sha256: String) {
        self.name = name
        self.bytes = bytes
        self.sha256 = sha256
    }

    /// The largest piece of a copy file one request gives.
    package static let chunkBytes = 4 * 1024 * 1024

    /// What `copyAfter` holds while a copy file is fetched: `=` and its name (no page key starts with `=`).
    package var mark: String { "=" + name }

    /// The name in a `copyAfter` mark (nil for a page key).
    package static func name(inMark mark: String?) -> String? {
        guard let mark, mark.hasPrefix("=") else { return nil }
        let name = String(mark.dropFirst())
        return isName(name) ? name : nil
    }

    /// 32 lowercase hex digits.
    package static func isName(_ text: String) -> Bool {
        text.utf8.count == 32 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }
}

/// Why a hub refused a request; the database is unchanged whenever one is given.
package enum SyncRefusal: Error, Hashable, Sendable, Codable {
    /// The peer speaks another protocol version: the side named must be updated.
    case protocolVersion(hub: Int, device: Int)
    /// The device's clock is this far from the hub's (positive: the device runs ahead).
    case clockSkew(offsetMilliseconds: Int64)
    /// No such device, or it was removed: its credential no longer works.
    case unknownDevice
    /// An entry names a child the device was not given.
    case childNotGiven(child: String)
    /// An entry moves a record to another child, names a field its kind does not have, or a stamp
    /// that is not the device's own.
    case malformed(reason: String)
    /// The push starts after a gap: resend from `expected`.
    case gap(expected: UInt64)
    case tooLarge
    /// Too many wrong joining codes lately: every code waits until the window has passed.
    case joinLocked
    /// The hub cannot take the request now (its database is busy, full or restarting): nothing
    /// was taken; the device keeps its changes and asks again later.
    case unavailable
}


/// `POST /sync/v1/join`: a device asks to join with the one-time code its guardian typed.
package struct JoinRequest: Hashable, Sendable, Codable {
    package let protocolVersion: Int
    /// The joining code the hub's guardian was shown (valid 10 minutes, attempts limited).
    package let code: String
    /// What the hub's guardian sees this device called ("Classroom").
    package let deviceName: String
    package let device: DeviceID

    package init(protocolVersion: Int = SyncProtocol.version, code: String, deviceName: String, device: DeviceID) {
        self.protocolVersion = protocolVersion
        self.code = code
        self.deviceName = deviceName
        self.device = device
    }
}

package struct JoinReply: Hashable, Sendable, Codable {
    /// The device's own credential, sent as `Authorization: Bearer` from now on (the hub keeps
    /// only its hash; the device keeps it owner-only).
    package let credential: String
    /// The hub's own device id (its stamps name it).
    package let hubDevice: DeviceID
    /// The children the hub gave this device.
    package let children: [String]

    package init(credential: String, hubDevice: DeviceID, children: [String]) {
        self.credential = credential
        self.hubDevice = hubDevice
        self.children = children
    }
}
