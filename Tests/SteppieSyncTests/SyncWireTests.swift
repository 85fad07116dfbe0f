import Foundation
import Testing
import SteppieSync

/// The protocol's bytes (docs/sync.md's example exchange is these documents).
@Suite struct SyncWireTests {
    static let device = DeviceID("3f0c9a52-8d1e-4c57-9b7a-2f6e1d0c4b11")!

    static func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    @Test func aPushIsTheseBytesAndReadsBack() throws {
        let stamp = HybridTimestamp(wall: 1_772_406_000_000, counter: 0, device: Self.device)
        let request = PushRequest(device: Self.device, sentAt: 1_772_406_000_120, entries: [
            NumberedEntry(seq: 41, entry: .change(FieldChange(
                entity: .routine, record: "6b1f4e2a-0c3d-4a5b-8c7d-9e0f1a2b3c4d", child: "d2c1b0a9-8f7e-4d6c-9b5a-493827161504",
                field: "title", value: .object(["en": .string("Brush teeth"), "ko": .string("양치하기")]), stamp: stamp))),
            NumberedEntry(seq: 42, entry: .event(CompletionEvent(
                id: "0a1b2c3d-4e5f-4a6b-8c7d-8e9f0a1b2c3d", child: "d2c1b0a9-8f7e-4d6c-9b5a-493827161504",
                routine: "6b1f4e2a-0c3d-4a5b-8c7d-9e0f1a2b3c4d", set: "5a4b3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d", date: "2026-03-02",
                kind: .press, at: "2026-03-02T08:00:00.120+09:00",
                stamp: HybridTimestamp(wall: 1_772_406_000_120, counter: 0, device: Self.device),
                shownTitle: .object(["en": .string("Brush teeth")]), shownIcon: .object(["name": .string("toothbrush"), "type": .string("builtin")])))),
        ])
        let text = try Self.json(request)
        #expect(text == #"{"device":"3f0c9a52-8d1e-4c57-9b7a-2f6e1d0c4b11","entries":[{"entry":{"change":{"child":"d2c1b0a9-8f7e-4d6c-9b5a-493827161504","entity":"routine","field":"title","record":"6b1f4e2a-0c3d-4a5b-8c7d-9e0f1a2b3c4d","stamp":"001772406000000-00000000-3f0c9a52-8d1e-4c57-9b7a-2f6e1d0c4b11","value":{"en":"Brush teeth","ko":"양치하기"}}},"seq":41},{"entry":{"event":{"at":"2026-03-02T08:00:00.120+09:00","child":"d2c1b0a9-8f7e-4d6c-9b5a-493827161504","date":"2026-03-02","id":"0a1b2c3d-4e5f-4a6b-8c7d-8e9f0a1b2c3d","kind":"press","routine":"6b1f4e2a-0c3d-4a5b-8c7d-9e0f1a2b3c4d","set":"5a4b3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d","shownIcon":{"name":"toothbrush","type":"builtin"},"shownTitle":{"en":"Brush teeth"},"stamp":"001772406000120-00000000-3f0c9a52-8d1e-4c57-9b7a-2f6e1d0c4b11"}},"seq":42}],"protocolVersion":1,"sentAt":1772406000120}"#)
        #expect(try JSONDecoder().decode(PushRequest.self, from: Data(text.utf8)) == request)
    }

    @Test func refusalsAndRepliesAreTheseBytes() throws {
        #expect(try Self.json(PushReply(acknowledged: 42, hubTime: 1_772_406_000_200)) == #"{"acknowledged":42,"hubTime":1772406000200}"#)
        #expect(try Self.json(SyncRefusal.clockSkew(offsetMilliseconds: 360_000)) == #"{"clockSkew":{"offsetMilliseconds":360000}}"#)
        #expect(try Self.json(SyncRefusal.protocolVersion(hub: 1, device: 2)) == #"{"protocolVersion":{"device":2,"hub":1}}"#)
        #expect(try Self.json(SyncRefusal.unknownDevice) == #"{"unknownDevice":{}}"#)
        let pull = PullReply(entries: [], cursor: 17, more: false, freshCopy: false, children: ["d2c1b0a9-8f7e-4d6c-9b5a-493827161504"], hubTime: 5)
        #expect(try Self.json(pull) == #"{"children":["d2c1b0a9-8f7e-4d6c-9b5a-493827161504"],"cursor":17,"entries":[],"freshCopy":false,"hubTime":5,"more":false}"#)
    }

    @Test func anEntryThatIsBothOrNeitherIsRefused() {
        for text in [#"{}"#, #"{"change":null,"event":null}"#] {
            #expect(throws: (any Error).self) { try JSONDecoder().decode(SyncEntry.self, from: Data(text.utf8)) }
        }
    }

    /// A paged copy's `copyAfter`: sealed with the children (in any order), going on after its key,
    /// starting again when the children changed, taken at its closing mark; an unsealed key of
    /// an older hub goes on as it says.
    @Test func aCopysPlaceIsSealedWithItsChildren() {
        let children = ["b-child", "a-child"]
        let next = SyncProtocol.copyAfterPage(children: children, lastKey: "routine/r1/title", done: false, due: true)
        let sealed = next ?? ""
        // `#`, 16 hex digits, `:`, the key.
        #expect(sealed.hasPrefix("#") && sealed.hasSuffix(":routine/r1/title") && sealed.count == 1 + 16 + 1 + "routine/r1/title".count)
        #expect(sealed.dropFirst().prefix(16).allSatisfy { $0.isHexDigit && !$0.isUppercase })
        #expect(sealed == SyncProtocol.copyAfterPage(children: ["a-child", "b-child"], lastKey: "routine/r1/title", done: false, due: false))
        #expect(SyncProtocol.copyStep(next, cursor: 9, children: ["a-child", "b-child"], due: true, position: 12)
                == .page(after: "routine/r1/title", cursor: 9))
        // Another child given between two pages: from the start, at the feed's position now.
        #expect(SyncProtocol.copyStep(next, cursor: 9, children: ["a-child", "b-child", "c-child"], due: true, position: 12)
                == .page(after: "", cursor: 12))
        #expect(SyncProtocol.copyStep(next, cursor: 9, children: ["a-child"], due: true, position: 12) == .page(after: "", cursor: 12))
        // The last page: a closing mark while the copy is owed, nil when it was the cursor's.
        let mark = SyncProtocol.copyAfterPage(children: children, lastKey: "~e9", done: true, due: true)
        #expect(SyncProtocol.closesCopy(mark) && !SyncProtocol.closesCopy(next) && !SyncProtocol.closesCopy(nil))
        #expect(SyncProtocol.copyAfterPage(children: children, lastKey: "~e9", done: true, due: false) == nil)
        #expect(SyncProtocol.copyStep(mark, cursor: 9, children: children, due: true, position: 12) == .taken(cursor: 9))
        #expect(SyncProtocol.copyStep(mark, cursor: 9, children: ["a-child"], due: true, position: 12) == .page(after: "", cursor: 12))
        // No copy asked for: the feed unless one is due; "" and a file's mark start one.
        #expect(SyncProtocol.copyStep(nil, cursor: 9, children: children, due: false, position: 12) == .feed)
        #expect(SyncProtocol.copyStep(nil, cursor: 9, children: children, due: true, position: 12) == .page(after: "", cursor: 12))
        #expect(SyncProtocol.copyStep("", cursor: 9, children: children, due: false, position: 12) == .page(after: "", cursor: 12))
        #expect(SyncProtocol.copyStep("=abc", cursor: 9, children: children, due: false, position: 12) == .page(after: "", cursor: 12))
        #expect(SyncProtocol.copyStep("routine/r1/title", cursor: 9, children: children, due: false, position: 12)
                == .page(after: "routine/r1/title", cursor: 9))
        // A seal that is not this hub's shape: from the start.
        #expect(SyncProtocol.copyStep("#zz", cursor: 9, children: children, due: false, position: 12) == .page(after: "", cursor: 12))
    }
}
