import Foundation
import SteppieCore
import SteppieService
import SteppieStore
import SteppieTestSupport
import Testing

/// The service switching sets by the weekly schedule with no screen open, and big buttons fed
/// real `struct input_event` records through a FIFO.
@Suite(.serialized) struct ServiceScheduleAndButtonTests {
    /// (zone, scripted start two seconds before the switch, weekday, start time of the school set)
    static let switches: [(String, String, Weekday, String)] = [
        // Midnight in Seoul: the school set from 00:00 on Tuesday.
        ("Asia/Seoul", "2026-03-02T23:59:58+09:00", .tuesday, "00:00"),
        // The New York spring-forward night: 02:30 does not exist; the switch comes at 03:00 EDT.
        ("America/New_York", "2026-03-08T01:59:58-05:00", .sunday, "02:30"),
    ]

    @Test(arguments: switches.map(\.1))
    func aScheduledSetSwitchHappensWithNoScreenOpen(start: String) throws {
        let (zone, _, weekday, time) = try #require(Self.switches.first { $0.1 == start })
        let f = ServiceFixture()
        #expect(f.run(["init", "--child", "Mina"], extra: ["TZ": zone]).status == 0)
        let store = try Store(path: f.db, timeZone: try #require(TimeZone(identifier: zone)))
        let child = try store.resolveChild("Mina")
        let morning = try #require(try store.activeSet(childId: child.id))
        let school = try store.createSet(childId: child.id, template: .school, at: Date())
        try store.setSchedule(childId: child.id, entries: [
            ScheduleEntry(weekdays: Set(Weekday.allCases), start: LocalTime("00:00") ?? LocalTime(hour: 0, minute: 0)!, routineSetId: morning.id),
            ScheduleEntry(weekdays: [weekday], start: try #require(LocalTime(time)), routineSetId: school.id),
        ].filter { !($0.routineSetId == morning.id && time == "00:00") }, at: Date())
        // Before the switch the morning set is active (the service applies the schedule on start).
        try store.activateSet(morning.id, at: Date())
        try f.start(["--output", "null"], extra: ["TZ": zone, "STEPPIE_NOW": start])
        let deadline = Date().addingTimeInterval(8)
        var switched = false
        while !switched && Date() < deadline {
            switched = (try? store.activeSet(childId: child.id))??.id == school.id
            if !switched { usleep(50_000) }
        }
        #expect(switched, "the school set was not activated: \(f.logText)")
        // The line is written after the switch is committed: wait for it.
        #expect(waitUntil(timeout: 3) { f.logText.contains("weekly schedule") }, "\(f.logText)")
        // The service's runtime shows the new set's plan.
        let schoolTotal = try store.routines(setId: school.id).filter(\.isActive).count
        var seen: Int?
        let shown = waitUntil(timeout: 8) {
            seen = (try? f.client().request(ServiceRequest(.status)))?.status?.children.first?.total
            return seen == schoolTotal
        }
        #expect(shown, "the service shows \(String(describing: seen)) routines, the school set has \(schoolTotal): \(f.logText)")
    }

    /// One `struct input_event` (x86_64: 16-byte timeval, type, code, value).
    static func record(type: UInt16, code: UInt16, value: Int32) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: 16)
        withUnsafeBytes(of: type.littleEndian) { bytes += $0 }
        withUnsafeBytes(of: code.littleEndian) { bytes += $0 }
        withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
        return bytes
    }

    static func press(_ code: UInt16) -> [UInt8] {
        record(type: 1, code: code, value: 1) + record(type: 0, code: 0, value: 0) + record(type: 1, code: code, value: 0)
    }

    @Test func buttonPressesCompleteUndoAndAdvanceAndSurviveReplugging() throws {
        let f = ServiceFixture()
        #expect(f.run(["init", "--child", "Mina"]).status == 0)
        let fifo = f.directory + "/button"
        #expect(mkfifo(fifo, 0o600) == 0)
        // KEY_ENTER done, KEY_U undo, KEY_N next, debounce 300 ms.
        try f.start(["--output", "null", "--button", "\(fifo):KEY_ENTER=done,KEY_U=undo,KEY_N=next,debounce=300ms"])
        let store = try f.store()
        let child = try store.resolveChild("Mina")
        func completed() -> Int { (try? store.today(childId: child.id, day: LocalDay(Date(), in: store.timeZone)).completedCount) ?? -1 }
        var writer = open(fifo, O_WRONLY)
        try #require(writer >= 0)
        func send(_ bytes: [UInt8]) { _ = bytes.withUnsafeBytes { write(writer, $0.baseAddress, $0.count) } }

        // A double press inside the debounce counts once.
        send(Self.press(28) + Self.press(28))
        #expect(waitUntil(timeout: 3) { completed() == 1 })
        #expect(!waitUntil(timeout: 0.6) { completed() == 2 }, "the double press counted twice")
        // Undo, then done again after the debounce, then next.
        send(Self.press(22))
        #expect(waitUntil(timeout: 3) { completed() == 0 })
        send(Self.press(28))
        #expect(waitUntil(timeout: 3) { completed() == 1 })
        send(Self.press(49))
        #expect(waitUntil(timeout: 3) {
            (try? f.client().request(ServiceRequest(.status)))?.status?.children.first.map { $0.focus != nil && $0.completed == 1 } == true
        })
        // Unplugged (the node goes away) and plugged back: presses work again within 2 s.
        close(writer)
        unlink(fifo)
        #expect(mkfifo(fifo, 0o600) == 0)
        let replugged = Date()
        // Read-write, so the new node has a writer from the start (a FIFO with none reads as
        // unplugged); the press waits in the pipe until the service opens it again.
        writer = open(fifo, O_RDWR)
        try #require(writer >= 0)
        send(Self.press(28))
        let back = waitUntil(timeout: 4) { completed() == 2 }
        #expect(back, "the replugged button was not picked up: \(f.logText)")
        #expect(Date().timeIntervalSince(replugged) < 2)
        close(writer)
    }
}
