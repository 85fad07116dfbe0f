import Foundation
import SteppieSync
import Synchronization

/// A school morning, one simulated hour compressed into `seconds`: every child presses each of its
/// six routines once, one press in ten is undone a moment later, and each group of ten children
/// gets two profile edits. Half of a child's presses are made on its own device, half on the
/// second device that holds it, so every press has another device to reach.
struct Morning {
    enum Act { case press(Int), undo(Int), profile }
    struct Item { let at: Double; let device: SimDevice; let child: SimChild; let act: Act }

    let items: [Item]
    let events: Int

    init(devices: [SimDevice], seconds: Double, seed: UInt64) {
        var random = SplitMix(seed)
        var items: [Item] = []
        let count = devices.count
        for device in devices {
            let partner = devices[(device.index + count - 1) % count]   // holds this device's children too
            for (c, child) in device.own.enumerated() {
                var times = (0..<6).map { _ in random.unit() * seconds * 0.95 }
                times.sort()
                for k in 0..<6 {
                    let on = (k + c) % 2 == 0 ? device : partner
                    items.append(Item(at: times[k], device: on, child: child, act: .press(k)))
                    if random.unit() < 0.1 {
                        items.append(Item(at: min(seconds, times[k] + seconds * 0.01), device: on, child: child, act: .undo(k)))
                    }
                }
            }
        }
        // Two profile edits for each group of ten children, made on the child's own device.
        let children = devices.flatMap { d in d.own.map { (d, $0) } }
        for group in stride(from: 0, to: children.count, by: 10) {
            for _ in 0..<2 {
                let (device, child) = children[group + Int(random.unit() * Double(min(10, children.count - group)))]
                items.append(Item(at: random.unit() * seconds, device: device, child: child, act: .profile))
            }
        }
        self.items = items.sorted { $0.at < $1.at }
        events = items.filter { if case .profile = $0.act { false } else { true } }.count
    }

    static let zone = TimeZone(identifier: "Asia/Seoul") ?? .current

    /// A random (version 4) UUID in lower case, as a device names an event, from a generator seeded
    /// once from the system's: Foundation's `UUID()` opens, reads and closes /dev/urandom each time,
    /// three system calls an entry in the simulated devices' CPU (docs/performance.md, session 54).
    static func eventID() -> String {
        let (high, low) = ids.withLock { ($0.next(), $0.next()) }
        var bytes = (0..<8).map { UInt8(truncatingIfNeeded: high >> (8 * $0)) } + (0..<8).map { UInt8(truncatingIfNeeded: low >> (8 * $0)) }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(36)
        for (i, byte) in bytes.enumerated() {
            if i == 4 || i == 6 || i == 8 || i == 10 { text.append(UInt8(ascii: "-")) }
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The entry the device makes now for `item`.
    static func entry(_ item: Item) -> SyncEntry {
        let stamp = item.device.stamp()
        switch item.act {
        case .press(let k), .undo(let k):
            let kind: CompletionEvent.Kind = if case .press = item.act { .press } else { .undo }
            let (day, at) = dayAndInstant(stamp.wall)
            return .event(CompletionEvent(id: eventID(), child: item.child.id, routine: item.child.routines[k],
                                          set: item.child.set, date: day, kind: kind, at: at, stamp: stamp,
                                          shownTitle: .object(["en": .string(SimChild.titles[k])])))
        case .profile:
            return .change(FieldChange(entity: .child, record: item.child.id, child: item.child.id, field: "profile.ttsRate",
                                       value: .double(0.9), stamp: stamp))
        }
    }

    /// The day and the instant (to the second) of `milliseconds` in Seoul, formatted once a
    /// second: the morning at once makes all its 6,800 entries in the same second or two, and
    /// a calendar's components and two `String(format:)` for each were a tenth of the simulated
    /// devices' CPU, spent before the first push went (docs/performance.md, session 53).
    static func dayAndInstant(_ milliseconds: Int64) -> (day: String, instant: String) {
        let second = milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000
        if let last = formatted.withLock({ $0 }), last.second == second { return (last.day, last.instant) }
        let date = Date(timeIntervalSince1970: Double(second))
        let made = (second: second, day: day(date), instant: instant(date))
        formatted.withLock { $0 = made }
        return (made.day, made.instant)
    }

    private static let ids = Mutex(SplitMix(UInt64.random(in: .min ... .max)))

    private static let formatted = Mutex<(second: Int64, day: String, instant: String)?>(nil)

    static func day(_ date: Date) -> String {
        let c = Calendar(identifier: .gregorian).dateComponents(in: zone, from: date)
        return String(format: "%04d-%02d-%02d", c.year ?? 0, c.month ?? 0, c.day ?? 0)
    }

    static func instant(_ date: Date) -> String {
        let c = Calendar(identifier: .gregorian).dateComponents(in: zone, from: date)
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02d+09:00", c.year ?? 0, c.month ?? 0, c.day ?? 0, c.hour ?? 0, c.minute ?? 0, c.second ?? 0)
    }
}

/// A small seeded generator, so every run plays the same morning.
struct SplitMix {
    var state: UInt64
    init(_ seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}
