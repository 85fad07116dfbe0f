import Foundation

/// Reads the protocol's hot messages (a pull's reply, a push's request, one entry, one value)
/// without Foundation's generic decoding: straight into their types when they have the shape the
/// protocol writes (`direct`), else `SyncJSONParser` into a `SyncValue` tree, then the message
/// from it. A message it would read differently from `JSONDecoder`, or not at all, is
/// handed to `JSONDecoder` (`decode`), so what is taken and what is refused stay exactly as before
/// (`SyncWireTests` compare both on random, hostile and malformed input).
package enum SyncWireReader {
    /// `type` from JSON bytes: the fast reader when it knows the type and the input, else
    /// `JSONDecoder` (whose error is thrown).
    package static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        if let fast = read(type, from: data) { return fast }
        return try JSONDecoder().decode(type, from: data)
    }

    /// `type` from bytes read in place (a line of a longer text): as `decode(_:from:)`, the bytes
    /// copied only for `JSONDecoder`.
    package static func decode<T: Decodable>(_ type: T.Type, from bytes: UnsafeBufferPointer<UInt8>) throws -> T {
        if let fast = read(type, from: bytes) { return fast }
        return try JSONDecoder().decode(type, from: Data(bytes))
    }

    /// The fast reader alone: nil when it does not know the type or leaves the input to `JSONDecoder`.
    /// A pull's reply, a push and an entry are read straight into their types (`direct`); when
    /// that reader leaves an input (a member it does not know, say), the tree reader below tries it
    /// before `JSONDecoder` does.
    package static func read<T>(_ type: T.Type, from data: some Collection<UInt8>) -> T? {
        if let direct = direct(type, from: data) { return direct }
        let known = type == PullReply.self || type == PushRequest.self || type == SyncEntry.self || type == SyncValue.self
        guard known, let tree = SyncJSONParser.value(data) else { return nil }
        switch type {
        case is PullReply.Type: return pullReply(tree) as? T
        case is PushRequest.Type: return pushRequest(tree) as? T
        case is SyncEntry.Type: return entry(tree) as? T
        case is SyncValue.Type: return tree as? T
        default: return nil
        }
    }

    /// A pull's reply, a push or an entry read straight from its bytes into its type
    /// (`SyncJSONParser+Messages`), without a `SyncValue` tree; nil for any other type, and for an
    /// input of another shape than the protocol writes.
    package static func direct<T>(_ type: T.Type, from data: some Collection<UInt8>) -> T? {
        switch type {
        case is PullReply.Type: SyncJSONParser.reading(data) { $0.pullReply() } as? T
        case is PushRequest.Type: SyncJSONParser.reading(data) { $0.pushRequest() } as? T
        case is SyncEntry.Type: SyncJSONParser.reading(data) { $0.entry(depth: 1) } as? T
        default: nil
        }
    }

    static func pullReply(_ tree: SyncValue) -> PullReply? {
        guard case .object(let o) = tree, let entries = o["entries"].flatMap(entryList), let cursor = unsigned(o["cursor"]),
              let more = o["more"]?.bool, let freshCopy = o["freshCopy"]?.bool, let children = o["children"]?.strings,
              let hubTime = o["hubTime"]?.int, let copyAfter = optionalString(o["copyAfter"]) else { return nil }
        var copyFile: CopyFile?
        switch o["copyFile"] {
        case nil, .null?: copyFile = nil
        case .object(let f)?:
            guard let name = f["name"]?.string, let bytes = unsigned(f["bytes"]), let sha = f["sha256"]?.string else { return nil }
            copyFile = CopyFile(name: name, bytes: bytes, sha256: sha)
        default: return nil
        }
        return PullReply(entries: entries, cursor: cursor, more: more, freshCopy: freshCopy, copyAfter: copyAfter,
                         children: children, hubTime: hubTime, copyFile: copyFile)
    }

    static func pushRequest(_ tree: SyncValue) -> PushRequest? {
        guard case .object(let o) = tree, let version = o["protocolVersion"]?.int, let device = deviceID(o["device"]),
              let sentAt = o["sentAt"]?.int, case .array(let items)? = o["entries"] else { return nil }
        var entries: [NumberedEntry] = []
        entries.reserveCapacity(items.count)
        for item in items {
            guard case .object(let n) = item, let seq = unsigned(n["seq"]), let entry = n["entry"].flatMap(entry) else { return nil }
            entries.append(NumberedEntry(seq: seq, entry: entry))
        }
        return PushRequest(protocolVersion: Int(version), device: device, sentAt: sentAt, entries: entries)
    }

    private static func entryList(_ tree: SyncValue) -> [SyncEntry]? {
        guard case .array(let items) = tree else { return nil }
        var entries: [SyncEntry] = []
        entries.reserveCapacity(items.count)
        for item in items {
            guard let entry = entry(item) else { return nil }
            entries.append(entry)
        }
        return entries
    }

    /// `{"change": …}` or `{"event": …}` as `SyncEntry.init(from:)` reads them (a null change is
    /// no change; a change beside any `event` key is refused).
    static func entry(_ tree: SyncValue) -> SyncEntry? {
        guard case .object(let o) = tree else { return nil }
        if let change = o["change"], change != .null {
            guard o["event"] == nil else { return nil }
            return fieldChange(change).map(SyncEntry.change)
        }
        return o["event"].flatMap(completionEvent).map(SyncEntry.event)
    }

    private static func fieldChange(_ tree: SyncValue) -> FieldChange? {
        guard case .object(let o) = tree, let entity = o["entity"]?.string.flatMap(SyncEntity.init(rawValue:)),
              let record = o["record"]?.string, let child = o["child"]?.string, let field = o["field"]?.string,
              let value = o["value"], let stamp = stamp(o["stamp"]) else { return nil }
        return FieldChange(entity: entity, record: record, child: child, field: field, value: value, stamp: stamp)
    }

    private static func completionEvent(_ tree: SyncValue) -> CompletionEvent? {
        guard case .object(let o) = tree, let id = o["id"]?.string, let child = o["child"]?.string,
              let routine = o["routine"]?.string, let set = o["set"]?.string, let date = o["date"]?.string,
              let kind = o["kind"]?.string.flatMap(CompletionEvent.Kind.init(rawValue:)), let at = o["at"]?.string,
              let stamp = stamp(o["stamp"]) else { return nil }
        // An absent or null look is nil (`decodeIfPresent`), never `.null`.
        let title = o["shownTitle"].flatMap { $0 == .null ? nil : $0 }
        let icon = o["shownIcon"].flatMap { $0 == .null ? nil : $0 }
        return CompletionEvent(id: id, child: child, routine: routine, set: set, date: date, kind: kind, at: at, stamp: stamp,
                               shownTitle: title, shownIcon: icon)
    }

    private static func stamp(_ value: SyncValue?) -> HybridTimestamp? { value?.string.flatMap(HybridTimestamp.init) }
    private static func deviceID(_ value: SyncValue?) -> DeviceID? { value?.string.flatMap(DeviceID.init) }

    private static func unsigned(_ value: SyncValue?) -> UInt64? {
        guard let int = value?.int, int >= 0 else { return nil }
        return UInt64(int)
    }

    /// Absent or null: `.some(nil)`; a string: itself; anything else: nil (not this reader's).
    private static func optionalString(_ value: SyncValue?) -> String?? {
        switch value {
        case nil, .null?: return .some(nil)
        case .string(let s)?: return .some(s)
        default: return nil
        }
    }
}
