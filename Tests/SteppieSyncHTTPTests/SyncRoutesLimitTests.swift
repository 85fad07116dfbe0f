import Foundation
import SteppieSync
import SteppieSyncHTTP
import Testing

/// The push route's body limit against a full batch of realistic entries, and that such a batch
/// goes through a real hub.
@Suite struct SyncRoutesLimitTests {
    typealias F = HubFixture

    static let titles: [(en: String, ko: String)] = [
        ("Brush teeth and wash face", "양치하고 세수하기"), ("Put on school uniform", "교복 입기"),
        ("Eat breakfast at the table", "식탁에서 아침 먹기"), ("Pack the school bag", "책가방 챙기기"),
        ("Take vitamins", "비타민 먹기"), ("Put shoes on by the door", "현관에서 신발 신기"),
    ]
    static let icons = ["toothbrush", "shirt", "bowl", "backpack", "pill", "shoe"]

    /// 2,000 entries as a device sends them after a busy day offline: half edits of routines
    /// (titles in both languages, icons, colours, times, order), half presses and undos with what
    /// the child saw.
    static func fullBatch(device: DeviceID) -> PushRequest {
        let child = F.child
        let set = UUID().uuidString.lowercased()
        let routines = (0..<40).map { _ in UUID().uuidString.lowercased() }
        var entries: [SyncEntry] = []
        for i in 0..<SyncProtocol.maxBatchEntries {
            let stamp = HybridTimestamp(wall: TestHub.now - Int64(SyncProtocol.maxBatchEntries - i) * 1000, counter: UInt32(i % 3), device: device)
            let routine = routines[i % routines.count]
            let title = Self.titles[i % Self.titles.count]
            let titleValue = SyncValue.object(["en": .string(title.en), "ko": .string(title.ko)])
            let iconValue = SyncValue.object(["type": .string("builtin"), "name": .string(Self.icons[i % Self.icons.count])])
            if i % 2 == 0 {
                let (field, value): (String, SyncValue) = switch (i / 2) % 6 {
                case 0: ("title", titleValue)
                case 1: ("icon", iconValue)
                case 2: ("color", .string("#4A90D9"))
                case 3: ("time", .string("07:\(10 + i % 50)"))
                case 4: ("set", .string(set))
                default: ("active", .bool(true))
                }
                if (i / 2) % 50 == 49 {
                    entries.append(.change(FieldChange(entity: .routineSet, record: set, child: child, field: "order",
                                                       value: .array(routines.map { .string($0) }), stamp: stamp)))
                } else {
                    entries.append(.change(FieldChange(entity: .routine, record: routine, child: child, field: field, value: value, stamp: stamp)))
                }
            } else {
                let day = 1 + (i / 80) % 28
                let date = String(format: "2026-02-%02d", day)
                entries.append(.event(CompletionEvent(
                    id: UUID().uuidString.lowercased(), child: child, routine: routine, set: set, date: date,
                    kind: i % 7 == 1 ? .undo : .press, at: "\(date)T07:\(10 + i % 50):05.120+09:00", stamp: stamp,
                    shownTitle: titleValue, shownIcon: iconValue)))
            }
        }
        return F.push(device, entries)
    }

    @Test func thePushLimitIsAboutTwiceAFullRealisticBatchWhichGoesThrough() throws {
        let request = Self.fullBatch(device: F.deviceA)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let size = try encoder.encode(request).count
        print("SyncRoutesLimitTests: a 2,000-entry push measures \(size) bytes; the limit is \(SyncRoutes.pushBodyLimit) (\(String(format: "%.2f", Double(SyncRoutes.pushBodyLimit) / Double(size)))x)")
        #expect(SyncRoutes.pushBodyLimit >= size * 3 / 2 && SyncRoutes.pushBodyLimit <= size * 5 / 2)

        let f = try F()
        let a = try f.joined(F.deviceA)
        #expect(try a.push(request).acknowledged == UInt64(SyncProtocol.maxBatchEntries))
        #expect(f.hub.feed.position == UInt64(SyncProtocol.maxBatchEntries))
    }
}
