import Foundation
import Testing
import SteppieCore

@Suite struct OrderedIdentifiersTests {
    static let seed = UUID(uuidString: "3f0c9a52-8d1e-4c57-9b7a-2f6e1d0c4b11")!

    @Test func idsAreLowercaseVersion7UUIDsInIncreasingOrder() {
        var ids = OrderedIdentifiers(milliseconds: 1_796_460_000_123, seed: Self.seed)
        let made = (0..<10_000).map { _ in ids.next() }
        #expect(Set(made).count == made.count)
        #expect(made == made.sorted())
        for id in made.prefix(50) {
            let uuid = try! #require(UUID(uuidString: id))
            #expect(uuid.uuidString.lowercased() == id)
            #expect(Array(id)[14] == "7")                       // version 7
            #expect("89ab".contains(Array(id)[19]))            // variant 10
        }
        // The first 48 bits are the milliseconds given.
        #expect(made[0].hasPrefix(String(format: "%08lx-%04lx", 1_796_460_000_123 >> 16, 1_796_460_000_123 & 0xFFFF)))
        // The counter starts from the seed's bits (rand_a's top bit cleared) and counts by one.
        #expect(made[0] == String(format: "%08lx-%04lx-7%03lx-%04lx-%012lx", 1_796_460_000_123 >> 16, 1_796_460_000_123 & 0xFFFF,
                                  0xc57 & 0x7FF, 0x9b7a, 0x2f6e1d0c4b11))
        #expect(made[1].hasSuffix("2f6e1d0c4b12"))
    }

    @Test func theCounterCarriesIntoRandAAndTheClock() {
        // A seed whose rand_b is all ones: the second id carries into rand_a, still in order.
        var ids = OrderedIdentifiers(milliseconds: 5, seed: UUID(uuidString: "00000000-0000-47ff-bfff-ffffffffffff")!)
        let first = ids.next(), second = ids.next()
        #expect(first == "00000000-0005-77ff-bfff-ffffffffffff")
        #expect(second == "00000000-0005-7800-8000-000000000000")
        #expect(first < second)
        // Different seeds at the same millisecond give different ids.
        var other = OrderedIdentifiers(milliseconds: 5, seed: Self.seed)
        #expect(other.next() != first)
    }
}
