/// The protocol's hot messages read straight from their bytes into their types: no `SyncValue`
/// tree for the message, its entries and their fields (each object a dictionary, each key hashed),
/// which was most of a push's reading on the hub and of a pull's on a device (docs/performance.md,
/// session 53). Only the values the protocol carries as JSON (a change's value, an event's look)
/// are read as `SyncValue`.
///
/// Each reader takes exactly the shape the protocol writes: every member it knows once, in any
/// order. Anything else — a member it does not know, one twice, a null where the type has none, a
/// number that is not a plain integer — it does not decide (nil), and `SyncWireReader` hands the
/// input to `JSONDecoder`, whose answer or refusal stands (`SyncWireFastTests` compare both).
extension SyncJSONParser {
    /// `body` over the whole input (whitespace around it allowed), nil unless it read all of it.
    static func reading<T>(_ input: some Collection<UInt8>, _ body: (inout SyncJSONParser) -> T?) -> T? {
        guard input.count <= maxBytes else { return nil }
        let run = { (buffer: UnsafeBufferPointer<UInt8>) -> T? in
            var parser = SyncJSONParser(buffer)
            parser.skipSpace()
            guard let value = body(&parser) else { return nil }
            parser.skipSpace()
            return parser.at == buffer.count ? value : nil
        }
        if let fast = input.withContiguousStorageIfAvailable(run) { return fast }
        return Array(input).withUnsafeBufferPointer(run)
    }

    /// Reads an object member by member: `member` gets each key with the parser at its value, reads
    /// the value and says whether it took it. False for anything that is not such an object.
    mutating func members(_ member: (inout SyncJSONParser, String) -> Bool) -> Bool {
        elements(open: UInt8(ascii: "{"), close: UInt8(ascii: "}")) { p in
            guard p.at < p.bytes.count, p.bytes[p.at] == UInt8(ascii: "\""), let key = p.string() else { return false }
            p.skipSpace()
            guard p.at < p.bytes.count, p.bytes[p.at] == UInt8(ascii: ":") else { return false }
            p.at += 1
            p.skipSpace()
            return member(&p, key)
        }
    }

    /// An array read item by item (`item` reads one; nil: not this reader's input).
    mutating func list<T>(_ item: (inout SyncJSONParser) -> T?) -> [T]? {
        var list: [T] = []
        let read = elements(open: UInt8(ascii: "["), close: UInt8(ascii: "]")) { p in
            guard let value = item(&p) else { return false }
            list.append(value)
            return true
        }
        return read ? list : nil
    }

    /// `open`, elements separated by commas (blanks around each), `close`: `element` reads one and
    /// says whether it took it. False for anything else.
    private mutating func elements(open: UInt8, close: UInt8, _ element: (inout SyncJSONParser) -> Bool) -> Bool {
        guard at < bytes.count, bytes[at] == open else { return false }
        at += 1
        skipSpace()
        if at < bytes.count, bytes[at] == close {
            at += 1
            return true
        }
        while true {
            skipSpace()
            guard element(&self) else { return false }
            skipSpace()
            guard at < bytes.count else { return false }
            let separator = bytes[at]
            at += 1
            if separator == close { return true }
            guard separator == UInt8(ascii: ",") else { return false }
        }
    }

    /// A string member (nil for anything else).
    mutating func text() -> String? {
        guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") else { return nil }
        return string()
    }

    /// An integer member (`integer` as `value(depth:)` reads one).
    mutating func whole() -> Int64? {
        guard at < bytes.count else { return nil }
        return integer()
    }

    /// An integer member that is not negative.
    mutating func unsigned() -> UInt64? {
        guard let value = whole(), value >= 0 else { return nil }
        return UInt64(value)
    }

    /// `true` or `false`.
    mutating func boolean() -> Bool? {
        guard at < bytes.count else { return nil }
        if bytes[at] == UInt8(ascii: "t") { return literal("true") ? true : nil }
        if bytes[at] == UInt8(ascii: "f") { return literal("false") ? false : nil }
        return nil
    }

    /// Whether the value here is `null` (read when it is).
    mutating func null() -> Bool {
        guard at < bytes.count, bytes[at] == UInt8(ascii: "n") else { return false }
        return literal("null")
    }

    /// Whether a member is seen for the first time, marking it (`bit` its place in `seen`).
    static func first(_ bit: Int, _ seen: inout UInt32) -> Bool {
        let mask = UInt32(1) << bit
        defer { seen |= mask }
        return seen & mask == 0
    }

    // MARK: the messages (depths as `value(depth:)` counts them for the same input)

    mutating func pushRequest() -> PushRequest? {
        var version: Int64?, device: DeviceID?, sentAt: Int64?, entries: [NumberedEntry]?
        var seen: UInt32 = 0
        let read = members { p, key in
            switch key {
            case "protocolVersion": guard Self.first(0, &seen) else { return false }; version = p.whole(); return version != nil
            case "device": guard Self.first(1, &seen) else { return false }; device = p.text().flatMap(DeviceID.init); return device != nil
            case "sentAt": guard Self.first(2, &seen) else { return false }; sentAt = p.whole(); return sentAt != nil
            case "entries":
                guard Self.first(3, &seen) else { return false }
                entries = p.list { $0.numberedEntry(depth: 3) }
                return entries != nil
            default: return false
            }
        }
        guard read, let version, let device, let sentAt, let entries else { return nil }
        return PushRequest(protocolVersion: Int(version), device: device, sentAt: sentAt, entries: entries)
    }

    private mutating func numberedEntry(depth: Int) -> NumberedEntry? {
        var seq: UInt64?, entry: SyncEntry?
        var seen: UInt32 = 0
        let read = members { p, key in
            switch key {
            case "seq": guard Self.first(0, &seen) else { return false }; seq = p.unsigned(); return seq != nil
            case "entry": guard Self.first(1, &seen) else { return false }; entry = p.entry(depth: depth + 1); return entry != nil
            default: return false
            }
        }
        guard read, let seq, let entry else { return nil }
        return NumberedEntry(seq: seq, entry: entry)
    }

    mutating func pullReply() -> PullReply? {
        var entries: [SyncEntry]?, cursor: UInt64?, more: Bool?, freshCopy: Bool?, children: [String]?, hubTime: Int64?
        var copyAfter: String?, copyFile: CopyFile?
        var seen: UInt32 = 0
        let read = members { p, key in
            switch key {
            case "entries":
                guard Self.first(0, &seen) else { return false }
                entries = p.list { $0.entry(depth: 3) }
                return entries != nil
            case "cursor": guard Self.first(1, &seen) else { return false }; cursor = p.unsigned(); return cursor != nil
            case "more": guard Self.first(2, &seen) else { return false }; more = p.boolean(); return more != nil
            case "freshCopy": guard Self.first(3, &seen) else { return false }; freshCopy = p.boolean(); return freshCopy != nil
            case "children":
                guard Self.first(4, &seen) else { return false }
                children = p.list { $0.text() }
                return children != nil
            case "hubTime": guard Self.first(5, &seen) else { return false }; hubTime = p.whole(); return hubTime != nil
            case "copyAfter":
                guard Self.first(6, &seen) else { return false }
                if p.null() { return true }
                copyAfter = p.text()
                return copyAfter != nil
            case "copyFile":
                guard Self.first(7, &seen) else { return false }
                if p.null() { return true }
                copyFile = p.copyFile()
                return copyFile != nil
            default: return false
            }
        }
        guard read, let entries, let cursor, let more, let freshCopy, let children, let hubTime else { return nil }
        return PullReply(entries: entries, cursor: cursor, more: more, freshCopy: freshCopy, copyAfter: copyAfter,
                         children: children, hubTime: hubTime, copyFile: copyFile)
    }

    private mutating func copyFile() -> CopyFile? {
        var name: String?, size: UInt64?, sha: String?
        var seen: UInt32 = 0
        let read = members { p, key in
            switch key {
            case "name": guard Self.first(0, &seen) else { return false }; name = p.text(); return name != nil
            case "bytes": guard Self.first(1, &seen) else { return false }; size = p.unsigned(); return size != nil
            case "sha256": guard Self.first(2, &seen) else { return false }; sha = p.text(); return sha != nil
            default: return false
            }
        }
        guard read, let name, let size, let sha else { return nil }
        return CopyFile(name: name, bytes: size, sha256: sha)
    }

    /// `{"change": …}` or `{"event": …}` (`depth`: the entry object's), as `SyncEntry.init(from:)`
    /// reads them: a change beside an `event` key is refused, and a null change is no change.
    mutating func entry(depth: Int) -> SyncEntry? {
        var change: FieldChange?, event: CompletionEvent?, sawEvent = false
        var seen: UInt32 = 0
        let read = members { p, key in
            switch key {
            case "change":
                guard Self.first(0, &seen) else { return false }
                if p.null() { return true }
                change = p.fieldChange(depth: depth + 1)
                return change != nil
            case "event":
                guard Self.first(1, &seen) else { return false }
                sawEvent = true
                event = p.completionEvent(depth: depth + 1)
                return event != nil
            default: return false
            }
        }
        guard read else { return nil }
        if let change { return sawEvent ? nil : .change(change) }
        return event.map(SyncEntry.event)
    }

    private mutating func fieldChange(depth: Int) -> FieldChange? {
        var entity: SyncEntity?, record: String?, child: String?, field: String?, value: SyncValue?, stamp: HybridTimestamp?
        var seen: UInt32 = 0
        let read = members { p, key in
            switch key {
            case "entity": guard Self.first(0, &seen) else { return false }; entity = p.text().flatMap(SyncEntity.init(rawValue:)); return entity != nil
            case "record": guard Self.first(1, &seen) else { return false }; record = p.text(); return record != nil
            case "child": guard Self.first(2, &seen) else { return false }; child = p.text(); return child != nil
            case "field": guard Self.first(3, &seen) else { return false }; field = p.text(); return field != nil
            case "value": guard Self.first(4, &seen) else { return false }; value = p.value(depth: depth); return value != nil
            case "stamp": guard Self.first(5, &seen) else { return false }; stamp = p.text().flatMap(HybridTimestamp.init); return stamp != nil
            default: return false
            }
        }
        guard read, let entity, let record, let child, let field, let value, let stamp else { return nil }
        return FieldChange(entity: entity, record: record, child: child, field: field, value: value, stamp: stamp)
    }

    private mutating func completionEvent(depth: Int) -> CompletionEvent? {
        var id: String?, child: String?, routine: String?, set: String?, date: String?, kind: CompletionEvent.Kind?
        var at: String?, stamp: HybridTimestamp?, title: SyncValue?, icon: SyncValue?
        var seen: UInt32 = 0
        let read = members { p, key in
            switch key {
            case "id": guard Self.first(0, &seen) else { return false }; id = p.text(); return id != nil
            case "child": guard Self.first(1, &seen) else { return false }; child = p.text(); return child != nil
            case "routine": guard Self.first(2, &seen) else { return false }; routine = p.text(); return routine != nil
            case "set": guard Self.first(3, &seen) else { return false }; set = p.text(); return set != nil
            case "date": guard Self.first(4, &seen) else { return false }; date = p.text(); return date != nil
            case "kind":
                guard Self.first(5, &seen) else { return false }
                kind = p.text().flatMap(CompletionEvent.Kind.init(rawValue:))
                return kind != nil
            case "at": guard Self.first(6, &seen) else { return false }; at = p.text(); return at != nil
            case "stamp": guard Self.first(7, &seen) else { return false }; stamp = p.text().flatMap(HybridTimestamp.init); return stamp != nil
            // An absent or null look is nil (`decodeIfPresent`), never `.null`.
            case "shownTitle":
                guard Self.first(8, &seen) else { return false }
                if p.null() { return true }
                title = p.value(depth: depth)
                return title != nil
            case "shownIcon":
                guard Self.first(9, &seen) else { return false }
                if p.null() { return true }
                icon = p.value(depth: depth)
                return icon != nil
            default: return false
            }
        }
        guard read, let id, let child, let routine, let set, let date, let kind, let at, let stamp else { return nil }
        return CompletionEvent(id: id, child: child, routine: routine, set: set, date: date, kind: kind, at: at, stamp: stamp,
                               shownTitle: title, shownIcon: icon)
    }
}
