import Foundation

/// Writes the protocol's hot messages (a pull's reply, a push's request, one entry, one value)
/// byte for byte as `SyncProtocol.encode`'s `JSONEncoder` (`.sortedKeys`,
/// `.withoutEscapingSlashes`) writes them, without its generic machinery: keys in the order of
/// their UTF-8 bytes, `"` `\` and control characters escaped as it escapes them, everything else
/// as it is. A double is written by `JSONEncoder` itself. `SyncWireTests` compare both.
package struct SyncWireWriter {
    package private(set) var bytes: [UInt8] = []

    package init(capacity: Int = 4096) { bytes.reserveCapacity(capacity) }

    /// What was written, as text (the centre's hub hands PostgreSQL a push's rows as one `jsonb` array).
    package var text: String { String(decoding: bytes, as: UTF8.self) }

    /// The message's bytes, or nil when this writer does not know its type (or a double could
    /// not be written: `JSONEncoder` refuses it too).
    package static func encode(_ value: some Encodable) -> [UInt8]? {
        var writer = SyncWireWriter()
        switch value {
        case let reply as PullReply: writer.bytes.reserveCapacity(reply.entries.count * 400 + 256); writer.pullReply(reply)
        case let request as PushRequest: writer.bytes.reserveCapacity(request.entries.count * 400 + 256); writer.pushRequest(request)
        case let entry as SyncEntry: writer.entry(entry)
        case let value as SyncValue: writer.value(value)
        default: return nil
        }
        return writer.failed ? nil : writer.bytes
    }

    private var failed = false

    /// Bytes written as they are (punctuation, keys).
    package mutating func raw(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    private mutating func int(_ value: some BinaryInteger) {
        bytes.append(contentsOf: String(value).utf8)
    }

    private mutating func bool(_ value: Bool) {
        if value { raw("true") } else { raw("false") }
    }

    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)

    package mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            var clean = 0   // bytes since the last escape, appended in one go
            for (i, byte) in utf8.enumerated() {
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[clean..<i]))
                clean = i + 1
                switch byte {
                case UInt8(ascii: "\""): raw("\\\"")
                case UInt8(ascii: "\\"): raw("\\\\")
                case 0x08: raw("\\b")
                case 0x0C: raw("\\f")
                case 0x0A: raw("\\n")
                case 0x0D: raw("\\r")
                case 0x09: raw("\\t")
                default:
                    raw("\\u00")
                    bytes.append(Self.hex[Int(byte >> 4)])
                    bytes.append(Self.hex[Int(byte & 0xF)])
                }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[clean...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    package mutating func value(_ value: SyncValue) {
        switch value {
        case .null: raw("null")
        case .bool(let b): bool(b)
        case .int(let i): int(i)
        case .double(let d):
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            if let data = try? encoder.encode(d) { bytes.append(contentsOf: data) } else { failed = true }
        case .string(let s): string(s)
        case .array(let items):
            bytes.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { bytes.append(UInt8(ascii: ",")) }
                self.value(item)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            bytes.append(UInt8(ascii: "{"))
            for (i, key) in members.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }).enumerated() {
                if i > 0 { bytes.append(UInt8(ascii: ",")) }
                string(key)
                bytes.append(UInt8(ascii: ":"))
                if let member = members[key] { self.value(member) }
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    package mutating func entry(_ entry: SyncEntry) {
        switch entry {
        case .change(let c):
            raw(#"{"change":{"child":"#); string(c.child)
            raw(#","entity":"#); string(c.entity.rawValue)
            raw(#","field":"#); string(c.field)
            raw(#","record":"#); string(c.record)
            raw(#","stamp":"#); string(c.stamp.description)
            raw(#","value":"#); value(c.value)
            raw("}}")
        case .event(let e):
            raw(#"{"event":{"at":"#); string(e.at)
            raw(#","child":"#); string(e.child)
            raw(#","date":"#); string(e.date)
            raw(#","id":"#); string(e.id)
            raw(#","kind":"#); string(e.kind.rawValue)
            raw(#","routine":"#); string(e.routine)
            raw(#","set":"#); string(e.set)
            if let icon = e.shownIcon { raw(#","shownIcon":"#); value(icon) }
            if let title = e.shownTitle { raw(#","shownTitle":"#); value(title) }
            raw(#","stamp":"#); string(e.stamp.description)
            raw("}}")
        }
    }

    mutating func pullReply(_ r: PullReply) {
        raw(#"{"children":["#)
        for (i, child) in r.children.enumerated() {
            if i > 0 { bytes.append(UInt8(ascii: ",")) }
            string(child)
        }
        raw("]")
        if let copyAfter = r.copyAfter { raw(#","copyAfter":"#); string(copyAfter) }
        if let file = r.copyFile {
            raw(#","copyFile":{"bytes":"#); int(file.bytes)
            raw(#","name":"#); string(file.name)
            raw(#","sha256":"#); string(file.sha256)
            raw("}")
        }
        raw(#","cursor":"#); int(r.cursor)
        raw(#","entries":["#)
        for (i, e) in r.entries.enumerated() {
            if i > 0 { bytes.append(UInt8(ascii: ",")) }
            entry(e)
        }
        raw(#"],"freshCopy":"#); bool(r.freshCopy)
        raw(#","hubTime":"#); int(r.hubTime)
        raw(#","more":"#); bool(r.more)
        raw("}")
    }

    mutating func pushRequest(_ r: PushRequest) {
        raw(#"{"device":"#); string(r.device.text)
        raw(#","entries":["#)
        for (i, n) in r.entries.enumerated() {
            if i > 0 { bytes.append(UInt8(ascii: ",")) }
            raw(#"{"entry":"#); entry(n.entry)
            raw(#","seq":"#); int(n.seq)
            raw("}")
        }
        raw(#"],"protocolVersion":"#); int(r.protocolVersion)
        raw(#","sentAt":"#); int(r.sentAt)
        raw("}")
    }
}
