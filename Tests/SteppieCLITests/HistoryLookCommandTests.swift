import Foundation
import Testing
import SteppieCore
import SteppieStore
@testable import SteppieCLI

/// `steppie history` shows what the child saw (issue 26, item 7): a completion keeps the title
/// and picture of the moment it was done, whatever the routine shows now.
@Suite struct HistoryLookCommandTests {
    @Test func aRenamedRoutinesPastDayShowsTheOldTitleAndPhoto() throws {
        let h = CLIHarness(now: "2026-03-02T07:00:00+09:00")
        #expect(h.run(["init", "--child", "Mina"]).status == 0)
        let id = try #require(try GuardianEditCommandTests.routineIds(h).first)
        // The card shows a photo (as the guardian pages set it) when the child presses it.
        let photo = "routine-photo-11111111-1111-4111-8111-111111111111.jpg"
        do {
            let store = try Store(path: h.db, timeZone: h.zone)
            var routine = try store.routine(id: try #require(UUID(uuidString: id)))
            routine.icon = .photo(localAssetId: "aaaaaaaa-1111-4111-8111-111111111111", backupAssetName: photo)
            try store.updateRoutine(routine, at: Date(timeIntervalSince1970: 1_772_402_000))
        }
        #expect(h.run(["complete"]).status == 0)
        h.clock.advance(by: 86_400)                                      // Mar 3
        #expect(h.run(["routine", "edit", id, "--title-en", "Rise and shine", "--title-ko", "해님 인사", "--icon", "sun"]).status == 0)

        let text = h.run(["history", "--date", "2026-03-02"]).out
        #expect(text.contains("✓ 07:00  Wake up") && !text.contains("Rise and shine"), "\(text)")
        #expect(h.run(["history", "--date", "2026-03-02"], locale: "ko").out.contains("✓ 07:00  일어나기"))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(h.run(["history", "--date", "2026-03-02", "--json"]).out.utf8)) as? [String: Any])
        let entry = try #require((json["completed"] as? [[String: Any]])?.first { $0["routineId"] as? String == id })
        #expect(entry["displayTitle"] as? String == "Wake up")
        let icon = try #require(entry["icon"] as? [String: Any])
        #expect(icon["type"] as? String == "photo" && icon["backupAssetName"] as? String == photo)
        // Today the routine is what it is now.
        #expect(h.run(["today"]).out.contains("Rise and shine"))
    }
}
