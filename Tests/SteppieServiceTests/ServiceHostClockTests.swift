import Foundation
import SteppieChildMode
import SteppieCore
import SteppieFeedback
import SteppieFiles
import SteppieLocalization
@testable import SteppieService
import SteppieStore
import Testing

/// `ServiceHost` built in the test and driven by a manual clock (issue 25): a reminder, a
/// scheduled set switch and a stalled client's timeout happen when the test moves time on and
/// turns the loop (`step`), never before, with no sleep and no process.
@Suite struct ServiceHostClockTests {
    /// A host on a temporary database with one child (Mina, the morning template), a null output
    /// and its socket in the rig's own folder. The routines' clock and the loop's clock are one
    /// manual clock.
    final class Rig {
        let folder: URL
        let store: Store
        let clock: ManualWallClock
        let output = NullOutput()
        let child: Child
        var logged: [ServiceLogEntry] = []
        private(set) var host: ServiceHost!

        init(start: String, zone: String = "Asia/Seoul", locale: String = "en",
             prepare: (Store, Child, Date) throws -> Void = { _, _, _ in }) throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("steppie-host-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let now = try #require(Timestamp.parse(start))
            clock = ManualWallClock(now)
            store = try Store(path: folder.appendingPathComponent("steppie.db").path, timeZone: try #require(TimeZone(identifier: zone)))
            try store.ensureDeviceSettings(at: now)
            var profile = FeedbackProfile()
            profile.quietHoursStart = nil
            profile.quietHoursEnd = nil
            child = try store.addChild(name: "Mina", profile: profile, at: now)
            try store.createSet(childId: child.id, template: .morning, activate: true, at: now)
            try prepare(store, child, now)
            let sounds = try SoundLibrary(directory: CLIRepository.root + "/Sounds")
            let engine = FeedbackEngine(output: output, sounds: sounds, render: { key, _, _ in key }, log: { _ in })
            let clock = clock
            let catalogs = try CatalogSet.load(directory: URL(fileURLWithPath: CLIRepository.root + "/Localization"))
            let renderer = CatalogRenderer(localizer: Localizer(catalogs: catalogs, systemLocale: nil), locale: locale)
            host = ServiceHost(store: store, databasePath: store.path, engine: engine, clock: clock,
                               socketPath: folder.appendingPathComponent("run/steppie.sock").path, speechLocale: "en",
                               loopClock: { clock.now().timeIntervalSince1970 }, render: { renderer.say($0) }) { [unowned self] in self.logged.append($0) }
            try host.start()
        }

        deinit {
            host?.shutdown()
            try? FileManager.default.removeItem(at: folder)
        }

        /// Moves both clocks on by `seconds` and turns the loop once (it waits for nothing).
        func advance(_ seconds: TimeInterval) {
            clock.advance(by: seconds)
            host.step(timeoutMilliseconds: 0)
        }

        /// A client on the host's socket, subscribed to Mina's events (the reply read after the
        /// loop has turned, so it is already in the socket).
        func subscriber() throws -> ServiceClient {
            let client = try #require(ServiceClient.connect(path: host.socketPath))
            host.step(timeoutMilliseconds: 0)            // accepts
            try client.sendLine(#"{"op":"subscribe","id":1}"#)
            host.step(timeoutMilliseconds: 0)            // answers
            let reply = try #require(try client.readLine(until: Date().addingTimeInterval(2)))
            #expect(reply.contains(#""ok":true"#), "\(reply)")
            return client
        }

        /// The event lines already written to `client` (the loop has turned; the short deadline
        /// only ends the read once the socket holds nothing more).
        func events(_ client: ServiceClient) throws -> [EventLogRecord] {
            var out: [EventLogRecord] = []
            while let line = try client.readLine(until: Date().addingTimeInterval(0.02)) {
                struct Wrapped: Decodable { let event: EventLogRecord }
                out.append(try JSONDecoder().decode(Wrapped.self, from: Data(line.utf8)).event)
            }
            return out
        }
    }

    /// A request that fails on the device (issue 25, item 5) is logged whole in the service's
    /// language, SQLite's own words and a path kept as arguments of catalog sentences, never
    /// Swift's description of the value; the reply (what the guardian pages show) says it in
    /// words a page may show.
    /// Another device's press arrives (another connection's commit: sync) between two turns of
    /// the loop; an undo here then reports its own change as saved, not "unchanged" (its event was
    /// written: a script counting what it did would lose it).
    @Test func anUndoAfterAnotherDevicesPressArrivedReportsItsOwnChange() throws {
        let rig = try Rig(start: "2026-03-02T06:50:00+09:00")
        rig.host.step(timeoutMilliseconds: 0)
        let first = rig.host.press(id: 1, .done, child: "Mina", locale: "en")
        #expect(first.press?.saved == true && first.press?.completed == 1)
        let other = try Store(path: rig.store.path, timeZone: rig.store.timeZone)
        let day = LocalDay(rig.clock.now(), in: rig.store.timeZone)
        _ = try other.complete(childId: rig.child.id, day: day, at: rig.clock.now().addingTimeInterval(0.5))
        rig.clock.advance(by: 1)
        let undo = rig.host.press(id: 2, .undo, child: "Mina", locale: "en")
        #expect(undo.press?.saved == true, "\(String(describing: undo.press))")
        #expect(undo.press?.notice == nil && undo.press?.completed == 1)
        #expect(try rig.store.today(childId: rig.child.id, day: day).completedCount == 1)
    }

    @Test func aFailureIsLoggedInTheServicesLanguageAndAnsweredWithoutDetail() throws {
        let rig = try Rig(start: "2026-03-02T07:00:00+09:00", locale: "ko")
        let full = StoreError.sqlite(SQLiteError(code: 13, message: "database or disk is full", sql: "UPDATE daily_logs SET state = 1"))
        let reply = rig.host.failed(3, child: "Mina", full)
        guard case .fault(let child, let reason)? = rig.logged.last else {
            Issue.record("no fault logged: \(rig.logged)")
            return
        }
        #expect(child == "Mina")
        #expect(reason == "데이터베이스 오류: 디스크가 가득 찼어요 (SQLite 코드 13: database or disk is full, 실행한 SQL: UPDATE daily_logs SET state = 1)",
                "\(reason)")
        #expect(reply.ok == false && reply.error?.code == .failed)
        #expect(reply.error?.message == "데이터베이스 오류: 디스크가 가득 찼어요", "\(String(describing: reply.error))")

        let path = "/srv/steppie/sounds/chime.wav"
        let refused = rig.host.failed(4, child: "-", FileRefusal.system(path: path, operation: "open", errno: EACCES, reason: "Permission denied"))
        guard case .fault(_, let logged)? = rig.logged.last else {
            Issue.record("no fault logged: \(rig.logged)")
            return
        }
        #expect(logged == "쓸 수 없어요: \(path) (권한이 없어요 (open))", "\(logged)")
        #expect(refused.error?.message == "기기에서 하지 못했어요 (이유는 서비스 기록에 있어요)", "\(String(describing: refused.error))")
        for line in [reason, logged, reply.error?.message ?? "", refused.error?.message ?? ""] {
            for tell in ["Error(", "errno:", "code:", "path:", "sqlite(", "system(", "StoreError", "FileRefusal", "Permission denied"] {
                #expect(!line.contains(tell), "\(line)")
            }
        }
    }

    /// A reminder five minutes before a routine's time is spoken on the tick that reaches it.
    @Test func aReminderIsSpokenWhenTheClockReachesIt() throws {
        let rig = try Rig(start: "2026-03-02T07:24:58+09:00") { store, child, now in
            let set = try #require(try store.activeSet(childId: child.id))
            var routine = try #require(try store.routines(setId: set.id).last)
            routine.scheduledTime = LocalTime("07:30")
            try store.updateRoutine(routine, at: now)
            var profile = child.profile
            profile.notificationLeadTimes = [5]
            try store.updateProfile(childId: child.id, profile, at: now)
        }
        let set = try #require(try rig.store.activeSet(childId: rig.child.id))
        let routine = try #require(try rig.store.routines(setId: set.id).last)
        let client = try rig.subscriber()
        // Starting is silent, and a second later it is still too early.
        #expect(rig.output.programs == 0)
        rig.advance(1)
        #expect(try rig.events(client).filter { $0.cue == "reminder" }.isEmpty)
        #expect(rig.output.programs == 0)
        // 07:25:00 — five minutes before.
        rig.advance(1.5)
        let reminders = try rig.events(client).filter { $0.cue == "reminder" }
        #expect(reminders.count == 1, "\(reminders)")
        #expect(reminders.first?.activityId == routine.id.lowercased)
        #expect(reminders.first?.minutes == 5)
        #expect(rig.output.programs == 1, "the reminder was not played")
        // Said once: the next minutes bring no second one.
        for _ in 0..<8 { rig.advance(15) }
        #expect(try rig.events(client).filter { $0.cue == "reminder" }.isEmpty)
        #expect(rig.output.programs == 1)
    }

    /// The weekly schedule switches the active set at its instant (midnight in Seoul), on the
    /// turn of the loop that reaches it; the runtime shows the new set's plan.
    @Test func aScheduledSetSwitchHappensWhenTheClockReachesIt() throws {
        var school: RoutineSet?
        let rig = try Rig(start: "2026-03-02T23:59:58+09:00") { store, child, now in
            let morning = try #require(try store.activeSet(childId: child.id))
            let made = try store.createSet(childId: child.id, template: .school, at: now)
            school = made
            // Morning from midnight every day but Tuesday, school from midnight on Tuesday.
            let midnight = try #require(LocalTime("00:00"))
            try store.setSchedule(childId: child.id, entries: [
                ScheduleEntry(weekdays: Set(Weekday.allCases).subtracting([.tuesday]), start: midnight, routineSetId: morning.id),
                ScheduleEntry(weekdays: [.tuesday], start: midnight, routineSetId: made.id),
            ], at: now)
            try store.activateSet(morning.id, at: now)
        }
        let schoolSet = try #require(school)
        let schoolTotal = try rig.store.routines(setId: schoolSet.id).filter(\.isActive).count
        rig.advance(1)                                    // 23:59:59, Monday
        #expect(try rig.store.activeSet(childId: rig.child.id)?.id != schoolSet.id)
        #expect(!rig.logged.contains(.setSwitched(child: "Mina")))
        rig.advance(1.5)                                  // 00:00:00.5, Tuesday
        #expect(try rig.store.activeSet(childId: rig.child.id)?.id == schoolSet.id)
        #expect(rig.logged.filter { $0 == .setSwitched(child: "Mina") }.count == 1, "\(rig.logged)")
        #expect(rig.host.status().children.first?.total == schoolTotal)
        // Once: the rest of the night switches nothing again.
        for _ in 0..<10 { rig.advance(60) }
        #expect(rig.logged.filter { $0 == .setSwitched(child: "Mina") }.count == 1)
    }

    /// A client that began a request line and stopped is closed once the line is older than the
    /// limit on the loop's clock, and not before; a quiet client with no half line stays.
    @Test func aStalledRequestLineTimesOutOnTheLoopClock() throws {
        let rig = try Rig(start: "2026-03-02T07:00:00+09:00")
        let quiet = try rig.subscriber()
        let stalled = try #require(ServiceClient.connect(path: rig.host.socketPath))
        rig.host.step(timeoutMilliseconds: 0)
        try stalled.sendRaw(Array(#"{"op":"sta"#.utf8))
        rig.host.step(timeoutMilliseconds: 0)
        rig.advance(ClientConnection.partialLineTimeout - 1)
        #expect(rig.host.clients.count == 2)
        rig.advance(2)
        #expect(rig.host.clients.count == 1)
        #expect(stalled.isClosed(within: 1))
        #expect(!quiet.isClosed(within: 0.05))
        // The one left is the subscriber, and it is still answered.
        try quiet.sendLine(#"{"op":"ping","id":2}"#)
        rig.host.step(timeoutMilliseconds: 0)
        #expect(try quiet.readLine(until: Date().addingTimeInterval(2))?.contains(#""ok":true"#) == true)
    }
}

/// The repository's root (for `Sounds/`).
enum CLIRepository {
    static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()
}
