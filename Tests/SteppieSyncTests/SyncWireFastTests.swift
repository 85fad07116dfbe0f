import Foundation
import SteppieTestSupport
import Testing
import SteppieSync

/// The hand-written reader and writer (`SyncWireReader`, `SyncWireWriter`) against Foundation's
/// coders: the same bytes out, the same values in, the same inputs refused.
@Suite struct SyncWireFastTests {
    static let device = DeviceID("3f0c9a52-8d1e-4c57-9b7a-2f6e1d0c4b11")!

    static func foundation(_ value: some Encodable) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(value))
    }

    /// Hostile and ordinary pieces: every control character, quotes, backslashes, slashes, DEL,
    /// U+2028/2029, a BOM character, emoji (with a joiner and a flag), Korean, Latin with accents.
    static let pieces: [String] = (0..<0x20).map { String(UnicodeScalar(UInt8($0))) }
        + ["\"", "\\", "/", "\\/", "\u{7F}", "\u{2028}", "\u{2029}", "\u{FEFF}", "😀", "👩‍👧", "🇰🇷", "양치하기", "신발 신기", "é", "e\u{301}",
           "a", "Z", " ", "{", "}", "[", "]", ":", ",", "\\u0041", "null", "true", "1", "-", "\u{10FFFF}", "\u{FFFD}"]

    static func randomString(_ rng: inout SeededRandom) -> String {
        (0..<Int.random(in: 0..<12, using: &rng)).map { _ in pieces.randomElement(using: &rng) ?? "" }.joined()
    }

    static func randomValue(_ rng: inout SeededRandom, depth: Int = 0) -> SyncValue {
        switch Int.random(in: 0..<(depth > 3 ? 5 : 8), using: &rng) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &rng))
        case 2: return .int([Int64.min, Int64.max, 0, -1, Int64.random(in: -1_000_000...1_000_000, using: &rng)].randomElement(using: &rng) ?? 0)
        case 3: return .string(randomString(&rng))
        case 4: return .string(["en", "ko", "builtin", "photo"].randomElement(using: &rng) ?? "")
        case 5: return .array((0..<Int.random(in: 0..<4, using: &rng)).map { _ in randomValue(&rng, depth: depth + 1) })
        default:
            var members: [String: SyncValue] = [:]
            for _ in 0..<Int.random(in: 0..<5, using: &rng) {
                members[Bool.random(using: &rng) ? randomString(&rng) : ["en", "ko", "type", "name", "Zed", "éa", "가", "😀"].randomElement(using: &rng) ?? ""]
                    = randomValue(&rng, depth: depth + 1)
            }
            return .object(members)
        }
    }

    static func stamp(_ rng: inout SeededRandom) -> HybridTimestamp {
        HybridTimestamp(wall: Int64.random(in: 0...HybridTimestamp.maxWall, using: &rng),
                        counter: UInt32.random(in: 0...HybridTimestamp.maxCounter, using: &rng), device: DeviceID(UUID()))
    }

    static func randomEntry(_ rng: inout SeededRandom) -> SyncEntry {
        if Bool.random(using: &rng) {
            return .change(FieldChange(entity: SyncEntity.allCases.randomElement(using: &rng) ?? .child, record: randomString(&rng),
                                       child: randomString(&rng), field: randomString(&rng), value: randomValue(&rng), stamp: stamp(&rng)))
        }
        return .event(CompletionEvent(id: randomString(&rng), child: randomString(&rng), routine: randomString(&rng), set: randomString(&rng),
                                      date: randomString(&rng), kind: CompletionEvent.Kind.allCases.randomElement(using: &rng) ?? .press,
                                      at: randomString(&rng), stamp: stamp(&rng),
                                      shownTitle: Bool.random(using: &rng) ? randomValue(&rng) : nil,
                                      shownIcon: Bool.random(using: &rng) ? randomValue(&rng) : nil))
    }

    /// The fast reader either leaves the input to `JSONDecoder` or reads what it reads;
    /// `SyncWireReader.decode` then always agrees with it, refusals included.
    static func expectReadsAsFoundation<T: Decodable & Equatable>(_ type: T.Type, _ bytes: [UInt8],
                                                                  sourceLocation: SourceLocation = #_sourceLocation) {
        let foundation = try? JSONDecoder().decode(type, from: Data(bytes))
        let text = String(decoding: bytes.prefix(300), as: UTF8.self)
        if let fast = SyncWireReader.read(type, from: bytes) {
            #expect(fast == foundation, "\(text)", sourceLocation: sourceLocation)
        }
        if let direct = SyncWireReader.direct(type, from: bytes) {
            #expect(direct == foundation, "straight into the type: \(text)", sourceLocation: sourceLocation)
        }
        #expect((try? SyncWireReader.decode(type, from: Data(bytes))) == foundation, "\(text)", sourceLocation: sourceLocation)
    }

    @Test func theWriterWritesJSONEncodersBytesAndTheReaderReadsThemBack() throws {
        var rng = SeededRandom(seed: 2027)
        var fastReads = 0
        for round in 0..<400 {
            let entries = (0..<Int.random(in: 0..<6, using: &rng)).map { _ in Self.randomEntry(&rng) }
            let reply = PullReply(entries: entries, cursor: UInt64.random(in: 0...UInt64(Int64.max), using: &rng), more: Bool.random(using: &rng),
                                  freshCopy: Bool.random(using: &rng), copyAfter: Bool.random(using: &rng) ? Self.randomString(&rng) : nil,
                                  children: (0..<Int.random(in: 0..<3, using: &rng)).map { _ in Self.randomString(&rng) },
                                  hubTime: Int64.random(in: Int64.min...Int64.max, using: &rng),
                                  copyFile: Bool.random(using: &rng) ? CopyFile(name: Self.randomString(&rng),
                                                                                bytes: UInt64.random(in: 0...UInt64(Int64.max), using: &rng),
                                                                                sha256: Self.randomString(&rng)) : nil)
            let push = PushRequest(protocolVersion: Int.random(in: -2...3, using: &rng), device: DeviceID(UUID()),
                                   sentAt: Int64.random(in: Int64.min...Int64.max, using: &rng),
                                   entries: entries.map { NumberedEntry(seq: UInt64.random(in: 0...UInt64(Int64.max), using: &rng), entry: $0) })
            let value = Self.randomValue(&rng)
            #expect(SyncWireWriter.encode(reply) == (try Self.foundation(reply)), "round \(round)")
            #expect(SyncWireWriter.encode(push) == (try Self.foundation(push)), "round \(round)")
            #expect(SyncWireWriter.encode(value) == (try Self.foundation(value)), "round \(round): \(value)")
            for entry in entries { #expect(SyncWireWriter.encode(entry) == (try Self.foundation(entry))) }
            let replyBytes = try Self.foundation(reply)
            // Read back as JSONDecoder reads them (a null look reads as none, as `decodeIfPresent` has it).
            let pushBytes = try Self.foundation(push)
            #expect(SyncWireReader.read(PullReply.self, from: replyBytes) != nil)
            #expect(SyncWireReader.read(PushRequest.self, from: pushBytes) != nil)
            // What the protocol writes is read straight into its type, without a tree.
            #expect(SyncWireReader.direct(PullReply.self, from: replyBytes) != nil, "round \(round)")
            #expect(SyncWireReader.direct(PushRequest.self, from: pushBytes) != nil, "round \(round)")
            for entry in entries {
                let bytes = try Self.foundation(entry)
                #expect(SyncWireReader.direct(SyncEntry.self, from: bytes) != nil)
                Self.expectReadsAsFoundation(SyncEntry.self, bytes)
            }
            Self.expectReadsAsFoundation(PushRequest.self, pushBytes)
            #expect(SyncWireReader.read(SyncValue.self, from: try Self.foundation(value)) == value)
            Self.expectReadsAsFoundation(PullReply.self, replyBytes)
            Self.expectReadsAsFoundation(SyncValue.self, try Self.foundation(value))
            fastReads += 1
        }
        #expect(fastReads == 400)
    }

    @Test func doublesAreWrittenByJSONEncoderInsideTheFastWriter() throws {
        for d in [0.5, -1.25, 1e300, 3.141592653589793, 1.0, 0.1] {
            let value = SyncValue.object(["a": .double(d), "b": .array([.double(d), .int(1)])])
            #expect(SyncWireWriter.encode(value) == (try Self.foundation(value)))
        }
        #expect(SyncWireWriter.encode(SyncValue.double(.infinity)) == nil)
    }

    @Test func escapesWhitespaceNumbersAndOddFormsReadAsJSONDecoderReadsThem() {
        let inputs = [
            #" { "a" : [ 1 , -2 , 0 , true , false , null , "x" ] } "#, #""\u0041\u00e9\uD83D\uDE00\/\b\f\n\r\t\"\\""#,
            #""\u0000""#, #""\u2028""#, "\"\u{2028}\"", #"1.0"#, #"1e2"#, #"-0"#, #"-0.0"#, #"1.5"#, #"9223372036854775807"#,
            #"9223372036854775808"#, #"-9223372036854775808"#, #"-9223372036854775809"#, #"{"a":1,"a":2}"#, #""\uD800""#,
            #""\uDC00""#, #""\uD800\u0041""#, #"[]"#, #"{}"#, #"[[[[[]]]]]"#, "\u{FEFF}{}", #"01"#, #"1."#, #".5"#, #"+1"#,
            #"-"#, #"tru"#, #"nul"#, #"[1,]"#, #"{"a":1,}"#, #"{"a"}"#, #"{a:1}"#, #"'a'"#, "\"a\u{01}\"", #""\x41""#, #""\u12""#,
            #"[1] x"#, "", " ", "[", "{\"a\":", #"NaN"#, #"Infinity"#, "\"\u{7F}\"", #"1E400"#, #"-1e-400"#,
            String(repeating: "[", count: 600) + String(repeating: "]", count: 600),
            String(repeating: "[", count: 200) + String(repeating: "]", count: 200),
        ]
        for input in inputs { Self.expectReadsAsFoundation(SyncValue.self, Array(input.utf8)) }
        // Bytes that are not UTF-8, inside a string and alone.
        for bytes: [UInt8] in [[0x22, 0xFF, 0x22], [0x22, 0xC3, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22], [0xFF], [0x22, 0x61]] {
            Self.expectReadsAsFoundation(SyncValue.self, bytes)
        }
    }

    /// A decimal fraction is read by the fast reader when its value is not whole, as the double
    /// `JSONDecoder` reads; a whole one (which `JSONDecoder` reads as an integer) is left to it.
    @Test func decimalFractionsReadAsJSONDecoderReadsThem() throws {
        let taken = ["0.9", "-0.5", "1.50", "0.0001", "123.456", "0.30000000000000004",
                     "3.141592653589793238462643383279", "1.0000000000000002"]
        for text in taken {
            #expect(SyncWireReader.read(SyncValue.self, from: Array(text.utf8)) == (try JSONDecoder().decode(SyncValue.self, from: Data(text.utf8))), "\(text)")
            #expect(SyncWireReader.read(SyncValue.self, from: Array(text.utf8))?.int == nil, "\(text)")
        }
        // Whole values, past a double's precision, exponents, too long: left to JSONDecoder.
        for text in ["1.0", "-0.0", "2.000", "-9007199254740993.5", "1.0000000000000000001", "12345678901234567890.5", "1.5e1", "1.5E-3",
                     "0." + String(repeating: "1", count: 60)] {
            #expect(SyncWireReader.read(SyncValue.self, from: Array(text.utf8)) == nil, "\(text)")
            Self.expectReadsAsFoundation(SyncValue.self, Array(text.utf8))
        }
        // Random fractions of every length up to 20 digits on each side, alone and inside a push.
        var rng = SeededRandom(seed: 4848)
        var read = 0
        for _ in 0..<2_000 {
            let digits = "0123456789"
            let whole = Int.random(in: 0...3, using: &rng) == 0 ? "0"
                : String((0..<Int.random(in: 1...20, using: &rng)).map { _ in digits.randomElement(using: &rng) ?? "1" }).replacing(/^0+/, with: "1")
            let part = String((0..<Int.random(in: 1...20, using: &rng)).map { _ in digits.randomElement(using: &rng) ?? "0" })
            let text = (Bool.random(using: &rng) ? "-" : "") + whole + "." + part
            Self.expectReadsAsFoundation(SyncValue.self, Array(text.utf8))
            if SyncWireReader.read(SyncValue.self, from: Array(text.utf8)) != nil { read += 1 }
            let change = FieldChange(entity: .child, record: "c", child: "c", field: "profile.ttsRate", value: .string("x"),
                                     stamp: HybridTimestamp(wall: 1, counter: 0, device: Self.device))
            let push = String(decoding: try Self.foundation(PushRequest(device: Self.device, sentAt: 1,
                                                                         entries: [NumberedEntry(seq: 1, entry: .change(change))])), as: UTF8.self)
                .replacing("\"x\"", with: text)
            Self.expectReadsAsFoundation(PushRequest.self, Array(push.utf8))
        }
        #expect(read > 1_500)
    }

    @Test func messagesWithMissingWrongOrExtraFieldsAreTakenAndRefusedAsJSONDecoderDoes() throws {
        let stamp = HybridTimestamp(wall: 1_772_406_000_000, counter: 3, device: Self.device).description
        let event = #"{"at":"t","child":"c","date":"2026-03-02","id":"i","kind":"press","routine":"r","set":"s","stamp":"\#(stamp)""#
        let change = #"{"child":"c","entity":"routine","field":"title","record":"r","stamp":"\#(stamp)","value":"#
        let entries = [
            #"{"event":\#(event)}}"#, #"{"event":\#(event),"shownTitle":null,"shownIcon":{"type":"builtin"}}}"#,
            #"{"event":\#(event),"extra":[1,2]}}"#, #"{"event":\#(event),"kind":"hop"}}"#, #"{"event":\#(event),"shownTitle":5}}"#,
            #"{"change":\#(change)null}}"#, #"{"change":\#(change){"en":"x"}}}"#, #"{"change":\#(change)1}, "event":null}"#,
            #"{"change":null,"event":\#(event)}}"#, #"{"change":\#(change)1},"other":1}"#, #"{"change":{"child":"c"}}"#,
            #"{"change":\#(change)1,"entity":"planet"}}"#, #"{"event":{"at":"t"}}"#, #"{}"#, #"[]"#, #"{"event":null}"#,
            #"{"change":\#(change)1,"stamp":"001772406000000-00000000-NOT-A-DEVICE"}}"#, #"{"event":\#(event),"id":7}}"#,
        ]
        for entry in entries {
            Self.expectReadsAsFoundation(SyncEntry.self, Array(entry.utf8))
            for (copyAfter, cursor, more) in [("", "17", "true"), (#","copyAfter":null"#, "0", "false"), (#","copyAfter":"~x""#, "-1", "true"),
                                               (#","copyAfter":3"#, "18446744073709551615", "true"), ("", "1.0", "1")] {
                let reply = #"{"children":["a"],"cursor":\#(cursor),"entries":[\#(entry)],"freshCopy":true,"hubTime":5,"more":\#(more)\#(copyAfter)}"#
                Self.expectReadsAsFoundation(PullReply.self, Array(reply.utf8))
            }
            for (device, seq, version) in [(Self.device.text, "1", "1"), ("not-a-device", "1", "1"), (Self.device.text, "-1", "2"),
                                           (Self.device.text.uppercased(), "2", "1")] {
                let push = #"{"device":"\#(device)","entries":[{"entry":\#(entry),"seq":\#(seq)}],"protocolVersion":\#(version),"sentAt":9}"#
                Self.expectReadsAsFoundation(PushRequest.self, Array(push.utf8))
            }
        }
        // Without entries, without a required field, a field of the wrong type.
        for reply in [#"{"children":[],"cursor":1,"entries":[],"freshCopy":false,"hubTime":5,"more":false}"#,
                      #"{"children":[],"cursor":1,"entries":[],"freshCopy":false,"hubTime":5}"#,
                      #"{"children":[1],"cursor":1,"entries":[],"freshCopy":false,"hubTime":5,"more":false}"#,
                      #"{"children":[],"cursor":1,"entries":{},"freshCopy":false,"hubTime":5,"more":false}"#] {
            Self.expectReadsAsFoundation(PullReply.self, Array(reply.utf8))
        }
        // The fast path is taken for what the protocol really sends.
        let reply = #"{"children":["a"],"cursor":3,"entries":[{"event":\#(event)}}],"freshCopy":true,"hubTime":5,"more":false}"#
        #expect(SyncWireReader.read(PullReply.self, from: Array(reply.utf8)) != nil)
        #expect(SyncWireReader.direct(PullReply.self, from: Array(reply.utf8)) != nil)
    }

    /// The reader straight into the types, on a message cut at every byte, with a member twice,
    /// with members in another order and with blanks everywhere JSON allows them: never a crash,
    /// and whatever it reads is what `JSONDecoder` reads.
    @Test func messagesCutShortDoubledOrReorderedReadAsJSONDecoderReadsThem() throws {
        let stamp = HybridTimestamp(wall: 1_772_406_000_000, counter: 3, device: Self.device).description
        let event = #"{"at":"t","child":"c","date":"2026-03-02","id":"i","kind":"press","routine":"r","set":"s","shownTitle":{"en":"Wash"},"stamp":"\#(stamp)"}"#
        let change = #"{"child":"c","entity":"routine","field":"title","record":"r","stamp":"\#(stamp)","value":[1,"x",null]}"#
        let push = #"{"device":"\#(Self.device.text)","entries":[{"entry":{"event":\#(event)},"seq":1},{"entry":{"change":\#(change)},"seq":2}],"protocolVersion":1,"sentAt":9}"#
        let reply = #"{"children":["c"],"copyAfter":null,"copyFile":{"bytes":10,"name":"f","sha256":"ab"},"cursor":7,"entries":[{"change":\#(change)},{"event":\#(event)}],"freshCopy":false,"hubTime":5,"more":true}"#
        #expect(SyncWireReader.direct(PushRequest.self, from: Array(push.utf8))?.entries.count == 2)
        #expect(SyncWireReader.direct(PullReply.self, from: Array(reply.utf8))?.copyFile?.bytes == 10)
        for message in [push, reply] {
            let bytes = Array(message.utf8)
            for cut in 0..<bytes.count {
                Self.expectReadsAsFoundation(PushRequest.self, Array(bytes.prefix(cut)))
                Self.expectReadsAsFoundation(PullReply.self, Array(bytes.prefix(cut)))
            }
        }
        let pushes: [String] = [
            push.replacingOccurrences(of: #""seq":1"#, with: #""seq":1,"seq":1"#),
            push.replacingOccurrences(of: #""protocolVersion":1"#, with: #""protocolVersion":1,"protocolVersion":1"#),
            push.replacingOccurrences(of: #""kind":"press""#, with: #""kind":"press","kind":"press""#),
            push.replacingOccurrences(of: #""shownTitle":{"en":"Wash"}"#, with: #""shownTitle":null,"shownTitle":{"en":"Wash"}"#),
            push.replacingOccurrences(of: #"{"entry":{"event""#, with: #"{"entry":{"change":null,"event""#),
            push.replacingOccurrences(of: #""sentAt":9"#, with: #""sentAt":9.5"#),
            push.replacingOccurrences(of: #""seq":2"#, with: #""seq":-2"#),
            push.replacingOccurrences(of: ",", with: " ,\n\t").replacingOccurrences(of: ":", with: " : "),
            #"{"sentAt":9,"protocolVersion":1,"entries":[],"device":"\#(Self.device.text)"}"#,
        ]
        let replies: [String] = [
            reply.replacingOccurrences(of: #""copyAfter":null"#, with: ##""copyAfter":"#ab$""##),
            reply.replacingOccurrences(of: #""copyFile":{"bytes":10,"name":"f","sha256":"ab"}"#, with: #""copyFile":null"#),
            reply.replacingOccurrences(of: #""bytes":10"#, with: #""bytes":10,"bytes":11"#),
            reply.replacingOccurrences(of: #""more":true"#, with: #""more":true,"more":false"#),
            reply.replacingOccurrences(of: #""children":["c"]"#, with: #""children":["c",null]"#),
            reply.replacingOccurrences(of: #""cursor":7"#, with: #""cursor":null"#),
        ]
        for variant in pushes + replies {
            Self.expectReadsAsFoundation(PushRequest.self, Array(variant.utf8))
            Self.expectReadsAsFoundation(PullReply.self, Array(variant.utf8))
        }
    }
}
