import Foundation
import SteppieCore
import SteppieGuardianWeb
import SteppieStore
import Testing

/// History keeps what the child saw (issue 26, item 7), on the guardian's history page.
@Suite struct GuardianHistoryLookTests {
    @Test("after a rename and a new photo, the day's history shows the old title and serves the old picture")
    func theHistoryPageShowsWhatTheChildSaw() throws {
        let f = try GuardianWebFixture()
        let (cookie, csrf) = try f.signIn()
        let set = try #require(try f.store.activeSet(childId: f.child.id))
        let routine = try #require(try f.store.routines(setId: set.id).first)
        let oldBytes = GuardianWebFixture.pngBytes(), newBytes = GuardianWebFixture.pngBytes() + Array(repeating: 7, count: 16)
        let first = f.post("/guardian/routine/\(routine.id.lowercased)/edit", cookie: cookie,
                           form: ["titleEn": "Wake up", "titleKo": "일어나기", "csrf": csrf],
                           files: ["photo": UploadedFile(filename: "old.png", contentType: "image/png", bytes: oldBytes)])
        #expect(first.status == 303)
        guard case .photo(_, let oldAsset) = try f.store.routine(id: routine.id).icon else { Issue.record("no photo"); return }
        #expect(try f.store.photoHashes()[oldAsset]?.count == 64)
        let day = LocalDay(f.wall.now(), in: GuardianWebFixture.zone)
        try f.store.complete(childId: f.child.id, routineId: routine.id, day: day, at: f.wall.now())

        // Renamed, with a new photo: the old file stays, since the completion shows it.
        let second = f.post("/guardian/routine/\(routine.id.lowercased)/edit", cookie: cookie,
                            form: ["titleEn": "Rise and shine", "titleKo": "해님 인사", "csrf": csrf],
                            files: ["photo": UploadedFile(filename: "new.png", contentType: "image/png", bytes: newBytes)])
        #expect(second.status == 303)
        guard case .photo(_, let newAsset) = try f.store.routine(id: routine.id).icon else { Issue.record("no photo"); return }
        #expect(newAsset != oldAsset && Set(f.photoFiles()) == [oldAsset, newAsset])

        let page = f.get("/guardian/child/\(f.child.id.lowercased)/history", cookie: cookie, query: ["date": day.description])
        #expect(page.status == 200)
        let item = try #require(page.text.range(of: "data-routine-id=\"\(routine.id.lowercased)\"").map { String(page.text[$0.upperBound...].prefix(400)) })
        #expect(item.contains("Wake up") && !item.contains("Rise and shine"))
        #expect(item.contains("/guardian/photos/\(oldAsset)") && !item.contains(newAsset))
        let served = f.get("/guardian/photos/\(oldAsset)", cookie: cookie)
        #expect(served.status == 200 && served.body == oldBytes)
        // The routines page shows the routine as it is now.
        let routines = f.get("/guardian/child/\(f.child.id.lowercased)/routines", cookie: cookie).text
        #expect(routines.contains("Rise and shine") && routines.contains("/guardian/photos/\(newAsset)"))

        // A photo no completion showed goes when it is replaced, as before.
        let third = f.post("/guardian/routine/\(routine.id.lowercased)/edit", cookie: cookie,
                           form: ["titleEn": "Rise and shine", "icon": "apple", "removePhoto": "on", "csrf": csrf])
        #expect(third.status == 303)
        #expect(f.photoFiles() == [oldAsset])
    }
}
