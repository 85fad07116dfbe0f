import Foundation
import SteppieTestSupport
import Testing
import SteppieSync

@Suite struct HybridClockTests {
    static let a = DeviceID("00000000-0000-4000-8000-00000000000a")!
    static let b = DeviceID("00000000-0000-4000-8000-00000000000b")!

    @Test func stampsOnlyGoForwardWhateverTheWallClockDoes() {
        var clock = HybridClock(device: Self.a)
        let s1 = clock.tick(physical: 1_000)
        let s2 = clock.tick(physical: 1_000)
        let s3 = clock.tick(physical: 400) // the wall clock stepped back
        let s4 = clock.tick(physical: 2_000)
        #expect([s1, s2, s3, s4] == [s1, s2, s3, s4].sorted())
        #expect(Set([s1, s2, s3, s4]).count == 4)
        #expect(s3.wall == 1_000 && s3.counter == 2)
        #expect(s4 == HybridTimestamp(wall: 2_000, counter: 0, device: Self.a))
    }

    @Test func aStampSeenFromAnotherDeviceOrdersEveryLaterLocalOneAfterIt() throws {
        var clock = HybridClock(device: Self.a)
        _ = clock.tick(physical: 1_000)
        let remote = HybridTimestamp(wall: 5_000, counter: 7, device: Self.b)
        try clock.observe(remote, physical: 1_100, maxAhead: 300_000)
        let next = clock.tick(physical: 1_200)
        #expect(remote < next)
        #expect(next.wall == 5_000 && next.counter == 8)
    }

    @Test func aPeerTooFarAheadIsRefusedAndChangesNothing() {
        var clock = HybridClock(device: Self.a)
        let before = clock.tick(physical: 1_000)
        let remote = HybridTimestamp(wall: 1_000 + 300_001, counter: 0, device: Self.b)
        #expect(throws: ClockSkew(offsetMilliseconds: 300_001, limitMilliseconds: 300_000)) {
            try clock.observe(remote, physical: 1_000, maxAhead: 300_000)
        }
        #expect(clock.last == before)
    }

    @Test func theWireFormSortsAsTheStampsDo() throws {
        let stamps = [
            HybridTimestamp(wall: 9, counter: 0, device: Self.b),
            HybridTimestamp(wall: 10, counter: 0, device: Self.a),
            HybridTimestamp(wall: 10, counter: 0xff, device: Self.a),
            HybridTimestamp(wall: 10, counter: 0x100, device: Self.a),
            HybridTimestamp(wall: 10, counter: 0x100, device: Self.b),
            HybridTimestamp(wall: 1_772_400_000_000, counter: 3, device: Self.a),
        ]
        #expect(stamps.map(\.description) == stamps.map(\.description).sorted())
        #expect(stamps.map(\.description) == stamps.sorted().map(\.description))
        for stamp in stamps { #expect(HybridTimestamp(stamp.description) == stamp) }
        #expect(stamps[5].description == "001772400000000-00000003-00000000-0000-4000-8000-00000000000a")
        for bad in ["", "1-2-3", "001772400000000-0000000G-00000000-0000-4000-8000-00000000000a",
                    "001772400000000-00000003-00000000-0000-4000-8000-00000000000A",
                    "-01772400000000-00000003-00000000-0000-4000-8000-00000000000a",
                    "001772400000000-01000000-00000000-0000-4000-8000-00000000000a"] {
            #expect(HybridTimestamp(bad) == nil, "\(bad)")
        }
    }

    /// The byte reader takes exactly what the first definition took (split on `-`, decimal and
    /// lowercase hex digits, a device id that `UUID` reads and writes back the same), over a
    /// thousand seeded one-byte changes of a valid stamp.
    @Test func theByteReaderTakesWhatTheFirstDefinitionTook() {
        func reference(_ text: String) -> HybridTimestamp? {
            let parts = text.split(separator: "-", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3, parts[0].count == 15, parts[1].count == 8,
                  parts[0].allSatisfy({ $0.isASCII && $0.isNumber }),
                  parts[1].allSatisfy({ $0.isHexDigit && $0.isASCII && !$0.isUppercase }),
                  let wall = Int64(parts[0]), let counter = UInt32(parts[1], radix: 16), counter <= HybridTimestamp.maxCounter,
                  parts[2].utf8.count == 36, let uuid = UUID(uuidString: String(parts[2])),
                  uuid.uuidString.lowercased() == parts[2] else { return nil }
            return HybridTimestamp(wall: wall, counter: counter, device: DeviceID(uuid))
        }
        let valid = Array("001772400000000-00abcdef-3f0c9a52-8d1e-4c57-9b7a-2f6e1d0c4b11".unicodeScalars)
        let replacements = Array("0123456789abcdefABCDEFgz-+ .é٣".unicodeScalars)
        var random = SeededRandom(seed: 27)
        var refused = 0
        for _ in 0..<1_000 {
            var scalars = valid
            let at = Int(random.next() % UInt64(scalars.count))
            switch random.next() % 3 {
            case 0: scalars[at] = replacements[Int(random.next() % UInt64(replacements.count))]
            case 1: scalars.remove(at: at)
            default: scalars.insert(replacements[Int(random.next() % UInt64(replacements.count))], at: at)
            }
            let text = String(String.UnicodeScalarView(scalars))
            #expect(HybridTimestamp(text) == reference(text), "\(text)")
            if reference(text) == nil { refused += 1 }
        }
        #expect(refused > 300)   // the changes reach the refusals, not only digit swaps
        #expect(HybridTimestamp(String(String.UnicodeScalarView(valid))) != nil)
    }
}
