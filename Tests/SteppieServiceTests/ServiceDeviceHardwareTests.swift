import Foundation
import SteppieCore
import SteppieService
import SteppieStore
import SteppieTestSupport
import Testing

/// A running `steppie serve` follows this device's hardware settings as another process changes
/// them: `buttons add|remove` opens and closes readers (fed real `struct input_event` records
/// through a FIFO), and `haptics set --log` sends the next cue's pattern to the file.
@Suite(.serialized) struct ServiceDeviceHardwareTests {
    static func status(_ f: ServiceFixture) -> ServiceStatus? {
        (try? f.client().request(ServiceRequest(.status)))?.status
    }

    @Test func aButtonStoredByAnotherProcessIsReadAndStopsBeingReadWhenRemoved() throws {
        let f = ServiceFixture()
        #expect(f.run(["init", "--child", "Mina"]).status == 0)
        let fifo = f.directory + "/stored-button"
        let records = f.directory + "/command-line-button"
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(FileManager.default.createFile(atPath: records, contents: Data()))
        // Read-write, so the FIFO always has a writer (a FIFO with none reads as unplugged); the
        // presses wait in the pipe until the service opens it.
        let writer = open(fifo, O_RDWR)
        try #require(writer >= 0)
        defer { close(writer) }
        func send(_ bytes: [UInt8]) { _ = bytes.withUnsafeBytes { write(writer, $0.baseAddress, $0.count) } }
        try f.start(["--output", "null", "--button", records])
        let store = try f.store()
        let child = try store.resolveChild("Mina")
        func completed() -> Int { (try? store.today(childId: child.id, day: LocalDay(Date(), in: store.timeZone)).completedCount) ?? -1 }
        #expect(Self.status(f)?.buttons?.map(\.source) == ["commandLine"])

        let add = f.run(["buttons", "add", fifo, "--map", "KEY_ENTER=done,KEY_N=next", "--child", "Mina"])
        #expect(add.status == 0, "\(add.err)")
        let added = Date()
        send(ServiceScheduleAndButtonTests.press(28))
        let pressed = waitUntil(timeout: 5) { completed() == 1 }
        #expect(pressed, "the stored button's press did not complete the routine: \(f.logText)")
        #expect(Date().timeIntervalSince(added) < 2.5, "picked up after \(Date().timeIntervalSince(added)) s")
        let inUse = try #require(Self.status(f)?.buttons)
        #expect(inUse.map(\.path) == [records, fifo])
        let stored = try #require(inUse.last)
        #expect(stored.source == "stored" && stored.state == "present" && stored.map == "KEY_ENTER=done,KEY_N=next")
        let storedId = try store.deviceButtons().first?.id.lowercased
        #expect(stored.child == child.id.lowercased && stored.id == storedId)
        #expect(f.logText.contains("reading the button \(fifo)"), "\(f.logText)")
        // `service status` says it in words too.
        let text = f.run(["service", "status"])
        #expect(text.out.contains("  Button \(fifo) (stored for the device): present\n"), "\(text.out)")

        // Next (KEY_N) moves on to the second activity, so a done now would complete it.
        let firstFocus = Self.status(f)?.children.first?.focus
        send(ServiceScheduleAndButtonTests.press(49))
        #expect(waitUntil(timeout: 3) {
            Self.status(f)?.children.first.map { $0.focus != nil && $0.focus != firstFocus && $0.completed == 1 } == true
        }, "next did not move on: \(f.logText)")

        #expect(f.run(["buttons", "remove", fifo]).status == 0)
        let closed = waitUntil(timeout: 5) { Self.status(f)?.buttons?.map(\.path) == [records] }
        #expect(closed, "the removed button is still in use: \(f.logText)")
        #expect(f.logText.contains("no longer reading the button \(fifo)"), "\(f.logText)")
        // A press now reaches nobody: the second activity stays open.
        send(ServiceScheduleAndButtonTests.press(28))
        #expect(!waitUntil(timeout: 1.5) { completed() != 1 }, "a press of the removed button counted")
        // The same press on the command line's button completes it: the removed one would have too.
        let appender = try #require(FileHandle(forUpdatingAtPath: records))
        try appender.seekToEnd()
        try appender.write(contentsOf: Data(ServiceScheduleAndButtonTests.press(28)))
        try appender.close()
        #expect(waitUntil(timeout: 3) { completed() == 2 }, "\(f.logText)")
    }

    /// A debounce of 0 (`--button …:debounce=0`, `buttons add --debounce 0`) lets presses that
    /// arrive together all count: done, next, done completes two activities, where the default
    /// 300 ms would drop the second done.
    @Test func eachButtonsOwnDebounceIsUsed() throws {
        let f = ServiceFixture()
        #expect(f.run(["init", "--child", "Mina"]).status == 0)
        let typed = f.directory + "/typed", stored = f.directory + "/stored"
        for path in [typed, stored] { #expect(FileManager.default.createFile(atPath: path, contents: Data())) }
        #expect(f.run(["buttons", "add", stored, "--map", "KEY_ENTER=done,KEY_N=next", "--debounce", "0"]).status == 0)
        try f.start(["--output", "null", "--button", typed + ":KEY_ENTER=done,KEY_N=next,debounce=0"])
        let store = try f.store()
        let child = try store.resolveChild("Mina")
        func completed() -> Int { (try? store.today(childId: child.id, day: LocalDay(Date(), in: store.timeZone)).completedCount) ?? -1 }
        func press(_ path: String, _ codes: [UInt16]) throws {
            let h = try #require(FileHandle(forUpdatingAtPath: path))
            try h.seekToEnd()
            try h.write(contentsOf: Data(codes.flatMap { ServiceScheduleAndButtonTests.press($0) }))
            try h.close()
        }
        try press(typed, [28, 49, 28])
        #expect(waitUntil(timeout: 3) { completed() == 2 }, "completed \(completed()): \(f.logText)")
        // The undo window of the second completion is open: next first.
        try press(stored, [49, 28, 49, 28])
        #expect(waitUntil(timeout: 3) { completed() == 4 }, "completed \(completed()): \(f.logText)")
    }

    /// One device stored under two paths (here a file and a symlink to it; on a device, a
    /// `/dev/input/by-id` link and its `eventN` node) is read by two descriptors that each get
    /// every event: its presses count once. Done, next, done completes two activities; counted
    /// twice, the second copy's next would close the undo window and its done complete a third.
    @Test func oneDeviceUnderTwoPathsCountsEachPressOnce() throws {
        let f = ServiceFixture()
        #expect(f.run(["init", "--child", "Mina"]).status == 0)
        let file = f.directory + "/button", link = f.directory + "/button-by-id"
        #expect(FileManager.default.createFile(atPath: file, contents: Data()))
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: file)
        for path in [file, link] {
            #expect(f.run(["buttons", "add", path, "--map", "KEY_ENTER=done,KEY_N=next", "--debounce", "0"]).status == 0)
        }
        try f.start(["--output", "null"])
        let store = try f.store()
        let child = try store.resolveChild("Mina")
        func completed() -> Int { (try? store.today(childId: child.id, day: LocalDay(Date(), in: store.timeZone)).completedCount) ?? -1 }
        #expect(waitUntil(timeout: 5) { Self.status(f)?.buttons?.count == 2 && Self.status(f)?.buttons?.allSatisfy { $0.state == "present" } == true })
        let both = try #require(Self.status(f)?.buttons)
        #expect(both.map(\.path) == [file, link])
        #expect(both[0].sameDeviceAs == nil && both[1].sameDeviceAs == file && both[1].problem == "service.log.buttonSameDevice")
        #expect(waitUntil(timeout: 3) { f.logText.contains("the button \(link) is the same device as \(file)") }, "\(f.logText)")
        #expect(f.run(["service", "status"]).out.contains("  Button \(link) (stored for the device): present\n    the same device as \(file): its presses are counted once\n"))

        let h = try #require(FileHandle(forUpdatingAtPath: file))
        try h.seekToEnd()
        try h.write(contentsOf: Data([28, 49, 28].flatMap { ServiceScheduleAndButtonTests.press($0) }))
        try h.close()
        #expect(waitUntil(timeout: 3) { completed() == 2 }, "completed \(completed()): \(f.logText)")
        #expect(!waitUntil(timeout: 1.5) { completed() != 2 }, "a press was counted twice: completed \(completed())")
    }

    @Test func aButtonStoredBeforeTheStartThatIsNotThereIsWaitedFor() throws {
        let f = ServiceFixture()
        #expect(f.run(["init", "--child", "Mina"]).status == 0)
        let node = "/dev/input/steppie-test-\(UUID().uuidString.prefix(8))"
        #expect(f.run(["buttons", "add", node]).status == 0)
        try f.start()
        let button = try #require(Self.status(f)?.buttons?.first)
        #expect(button.path == node && button.state == "absent" && button.problem == "button.device.missing")
        #expect(f.run(["service", "status"]).out.contains("  Button \(node) (stored for the device): absent\n"))
    }

    @Test func hapticsSetByAnotherProcessAreUsedForTheNextCue() throws {
        let f = ServiceFixture()
        #expect(f.run(["init", "--child", "Mina"]).status == 0)
        try f.start()
        let initial = try #require(Self.status(f)?.haptics)
        #expect(initial == ServiceHapticsStatus(audioPulse: true, rumble: nil, log: nil))
        let log = f.directory + "/haptics.jsonl"
        #expect(f.run(["haptics", "set", "--log", log, "--audio-pulse", "off"]).status == 0)
        // The service reports the log open before the press, so the press is the one that writes.
        let taken = waitUntil(timeout: 5) { Self.status(f)?.haptics == ServiceHapticsStatus(
            audioPulse: false, rumble: nil, log: HapticOutputStatus(path: log, state: "present")) }
        #expect(taken, "\(String(describing: Self.status(f)?.haptics)): \(f.logText)")
        #expect(f.logText.contains("haptic stand-ins: audio pulse off, rumble none, log \(log)"), "\(f.logText)")
        func lines() -> [[String: Any]] {
            ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
        }
        #expect(f.run(["complete"]).status == 0)
        #expect(waitUntil(timeout: 5) { lines().count == 1 }, "no haptic line: \(f.logText)")
        #expect(lines().first?["event"] as? String == "completed" && lines().first?["pattern"] as? String == "light")
        let undo = f.run(["undo"])
        #expect(undo.status == 0, "\(undo.err)")
        #expect(waitUntil(timeout: 5) { lines().count == 2 }, "no haptic line for the undo: \(f.logText)")
        #expect(lines().last?["event"] as? String == "undone")
        // Taken away again: the next completion writes nothing more.
        #expect(f.run(["haptics", "set", "--log", "none"]).status == 0)
        #expect(waitUntil(timeout: 5) { Self.status(f)?.haptics?.log == nil })
        let again = f.run(["complete"])
        #expect(again.status == 0, "\(again.err)")
        #expect(!waitUntil(timeout: 1) { lines().count > 2 }, "the log was written after it was set to none")
    }
}
