import CEvdev
import Foundation
import SteppieFiles
import Testing
@testable import SteppieInput
#if canImport(Glibc)
import Glibc
#endif

@Suite struct ButtonDeviceTests {
    let t0 = ContinuousClock.now
    func at(_ ms: Int) -> ContinuousClock.Instant { t0 + .milliseconds(ms) }

    @Test func aPressThroughAFifoIsDone() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let path = try scratch.fifo("button")
        let device = try ButtonDevice(spec: ButtonSpec(parsing: path), now: at(0))
        let writer = try FifoWriter(path)
        #expect(device.read(now: at(0)).isEmpty)
        try writer.write(Records.tap(KEY_SPACE))
        let presses = device.read(now: at(10))
        #expect(presses == [ButtonPress(action: .done, keyCode: UInt16(KEY_SPACE), at: at(10))])
        #expect(device.status == .open)
        #expect(device.takeNotices().isEmpty)
    }

    @Test func mappedKeysUndoAndAdvanceAndReleaseAndAutorepeatAreIgnored() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let records = Records.down(KEY_ENTER) + Records.autorepeat(KEY_ENTER) + Records.autorepeat(KEY_ENTER)
            + Records.up(KEY_ENTER) + Records.tap(KEY_U) + Records.tap(KEY_Z) + Records.tap(BTN_0)
            + Records.event(type: EV_MSC, code: MSC_SCAN, value: 0x70028)
        let path = scratch.file("events", records)
        let spec = try ButtonSpec(parsing: path + ":KEY_ENTER=done,KEY_U=undo,BTN_0=next")
        let device = try ButtonDevice(spec: spec, now: at(0))
        let presses = device.read(now: at(5))
        #expect(presses.map(\.action) == [.done, .undo, .next])
        #expect(presses.map(\.keyCode) == [UInt16(KEY_ENTER), UInt16(KEY_U), UInt16(BTN_0)])
        // The end of a regular file is "nothing more yet", not a lost device.
        #expect(device.read(now: at(6)).isEmpty)
        #expect(device.status == .open)
        // Holding the key: autorepeat records appended later never repeat the press.
        try append(Records.autorepeat(KEY_ENTER) + Records.autorepeat(KEY_ENTER), to: path)
        #expect(device.read(now: at(2000)).isEmpty)
    }

    @Test func aDoublePressInsideTheDebounceCountsOnceAndOneAfterItCountsTwice() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let path = try scratch.fifo("button")
        let device = try ButtonDevice(spec: ButtonSpec(path: path), now: at(0))
        let writer = try FifoWriter(path)
        // Two presses in the same read: the second is inside the window.
        try writer.write(Records.tap(KEY_ENTER) + Records.tap(KEY_ENTER))
        #expect(device.read(now: at(0)).count == 1)
        try writer.write(Records.tap(KEY_ENTER))
        #expect(device.read(now: at(150)).isEmpty)
        try writer.write(Records.tap(KEY_ENTER))
        #expect(device.read(now: at(320)).map(\.action) == [.done])
        // The caller changes the window when the child's setting changes.
        device.debounceWindow = .milliseconds(1000)
        try writer.write(Records.tap(KEY_ENTER))
        #expect(device.read(now: at(900)).isEmpty)
        try writer.write(Records.tap(KEY_ENTER))
        #expect(device.read(now: at(1320)).count == 1)
    }

    @Test func aZeroDebounceFromTheSpecCountsEveryPress() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let path = scratch.file("events", Records.tap(KEY_ENTER) + Records.tap(KEY_ENTER))
        let spec = try ButtonSpec(parsing: path + ":debounce=0")
        let device = try ButtonDevice(spec: spec, debounce: spec.effectiveDebounce(childSetting: .milliseconds(300)), now: at(0))
        #expect(device.read(now: at(0)).count == 2)
    }

    @Test func aPartialRecordThroughAFifoWaitsForTheRest() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let path = try scratch.fifo("button")
        let device = try ButtonDevice(spec: ButtonSpec(path: path), now: at(0))
        let writer = try FifoWriter(path)
        let press = Records.down(KEY_ENTER)
        try writer.write(Array(press.prefix(12)))
        #expect(device.read(now: at(0)).isEmpty)
        try writer.write(Array(press.dropFirst(12)) + Records.up(KEY_ENTER))
        #expect(device.read(now: at(1)).map(\.keyCode) == [UInt16(KEY_ENTER)])
        // Records that are not key presses are skipped; a trailing fragment waits, harmlessly.
        let garbage = Records.event(type: 0x7fff, code: 0xffff, value: 1) + Records.event(type: EV_KEY, code: KEY_ENTER, value: 77)
        try writer.write(garbage + [1, 2, 3, 4, 5, 6, 7])
        #expect(device.read(now: at(400)).isEmpty)
        #expect(device.status == .open)
    }

    @Test func aPartialRecordInAFileWaitsForTheRest() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let press = Records.down(KEY_U)
        let path = scratch.file("events", Array(press.prefix(23)))
        let device = try ButtonDevice(spec: ButtonSpec(parsing: path + ":KEY_U=undo"), now: at(0))
        #expect(device.read(now: at(0)).isEmpty)
        try append(Array(press.dropFirst(23)), to: path)
        #expect(device.read(now: at(1)).map(\.action) == [.undo])
    }

    @Test func theWriterLeavingAFifoIsALostDeviceThatComesBack() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let path = try scratch.fifo("button")
        let device = try ButtonDevice(spec: ButtonSpec(path: path), now: at(0))
        var writer: FifoWriter? = try FifoWriter(path)
        try writer?.write(Records.tap(KEY_ENTER) + [9, 9, 9])
        writer = nil
        #expect(device.read(now: at(10)).count == 1)
        #expect(device.status == .lost(.unplugged))
        #expect(device.fileDescriptor == nil)
        #expect(device.takeNotices() == [.lost(path: path, reason: .unplugged)])
        #expect(device.nextCheck == at(510))
        #expect(!device.reopenIfDue(now: at(300)))
        #expect(device.reopenIfDue(now: at(510)))
        #expect(device.takeNotices() == [.back(path: path)])
        let again = try FifoWriter(path)
        // The three stray bytes before the loss are not glued to the next record.
        try again.write(Records.tap(KEY_ENTER))
        #expect(device.read(now: at(900)).count == 1)
    }

    @Test func aRemovedAndRecreatedNodeIsPickedUpAgainWithinTwoSeconds() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let path = try scratch.fifo("button")
        let device = try ButtonDevice(spec: ButtonSpec(path: path), now: .now)
        let first = try FifoWriter(path)
        try first.write(Records.tap(KEY_ENTER))
        var presses = try pollLoop(device, until: .now + .seconds(2)) { !$0.isEmpty }
        #expect(presses.map(\.action) == [.done])

        // Unplugged: the node goes (the old writer even stays connected to the old one) and
        // comes back as a new node.
        unlink(path)
        _ = try scratch.fifo("button")
        let replugged = ContinuousClock.now
        var second: FifoWriter?
        var notices: [ButtonNotice] = []
        presses = try pollLoop(device, until: replugged + .seconds(2), onEachTurn: {
            notices += device.takeNotices()
            // Like a real button, the new node has presses only once it is open again.
            if second == nil, notices.contains(.back(path: path)) {
                second = try FifoWriter(path)
                try second?.write(Records.tap(KEY_ENTER))
            }
        }, done: { !$0.isEmpty })
        #expect(presses.map(\.action) == [.done])
        #expect(ContinuousClock.now - replugged < .seconds(2))
        #expect(notices + device.takeNotices() == [.lost(path: path, reason: .removed), .back(path: path)])
        _ = first
    }

    @Test func aNodeGoneForAWhileIsTriedEveryHalfSecondAndPickedUpWhenBack() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let path = scratch.file("events", [])
        let device = try ButtonDevice(spec: ButtonSpec(path: path), now: at(0))
        unlink(path)
        #expect(!device.reopenIfDue(now: at(499)))
        #expect(device.status == .open)
        #expect(!device.reopenIfDue(now: at(500)))
        #expect(device.status == .lost(.removed))
        #expect(device.lastReopenError == .missing(path: path))
        _ = scratch.file("events", Records.tap(KEY_ENTER))
        #expect(!device.reopenIfDue(now: at(700)))
        #expect(device.reopenIfDue(now: at(1000)))
        #expect(device.status == .open)
        #expect(device.read(now: at(1001)).count == 1)
        #expect(device.takeNotices() == [.lost(path: path, reason: .removed), .back(path: path)])
    }

    @Test func aMissingDeviceIsRefusedUnlessWaitedFor() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let path = scratch.path + "/not-plugged-in"
        #expect(throws: ButtonDeviceError.missing(path: path)) {
            try ButtonDevice(spec: ButtonSpec(path: path), now: at(0))
        }
        let device = try ButtonDevice(spec: ButtonSpec(path: path), now: at(0), waitIfMissing: true)
        #expect(device.status == .lost(.removed))
        #expect(device.fileDescriptor == nil)
        #expect(device.read(now: at(1)).isEmpty)
        _ = scratch.file("not-plugged-in", Records.tap(BTN_0))
        #expect(device.reopenIfDue(now: at(500)))
        #expect(device.read(now: at(501)).map(\.action) == [.done])
    }

    /// A button stored for the device is never refused: whatever is in the way, it starts lost
    /// with the reason kept, and opens once the path names something readable.
    @Test func aStoredButtonKeepsTryingWhateverTheReason() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let path = scratch.path + "/button"
        #expect(mkdir(path, 0o700) == 0)
        let device = try ButtonDevice(spec: ButtonSpec(path: path), now: at(0), keepTrying: true)
        #expect(device.status == .lost(.removed) && !device.isPresent)
        #expect(device.lastReopenError == .notAnInputDevice(path: path, kind: .directory))
        #expect(!device.reopenIfDue(now: at(500)))
        #expect(rmdir(path) == 0)
        _ = scratch.file("button", Records.tap(KEY_ENTER))
        #expect(device.reopenIfDue(now: at(1000)))
        #expect(device.isPresent && device.lastReopenError == nil)
        #expect(device.read(now: at(1001)).map(\.action) == [.done])
        #expect(device.takeNotices() == [.back(path: path)])
    }

    /// Which paths `buttons add` may store (`ButtonPath.checkStorable`).
    @Test func storablePathsAreInputNodesOrExistingFifosAndFiles() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let fifo = try scratch.fifo("button")
        let file = scratch.file("records", [])
        try ButtonPath.checkStorable(fifo)
        try ButtonPath.checkStorable(file)
        // Under /dev/input a node that is not plugged in yet is fine.
        try ButtonPath.checkStorable("/dev/input/by-id/usb-Steppie-Test-\(getpid())-event-kbd")
        let missing = scratch.path + "/missing"
        #expect(throws: ButtonPathError.outsideInputFolder(path: missing)) { try ButtonPath.checkStorable(missing) }
        #expect(throws: ButtonPathError.unsupportedKind(path: scratch.path, kind: .directory)) { try ButtonPath.checkStorable(scratch.path) }
        #expect(throws: ButtonPathError.unsupportedKind(path: "/dev/null", kind: .characterDevice)) { try ButtonPath.checkStorable("/dev/null") }
    }

    @Test func aFolderIsRefused() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        #expect(throws: ButtonDeviceError.notAnInputDevice(path: scratch.path, kind: .directory)) {
            try ButtonDevice(spec: ButtonSpec(path: scratch.path), now: at(0))
        }
    }

    @Test func aCharacterDeviceThatIsNotEvdevIsRefused() {
        #expect(throws: ButtonDeviceError.notAnInputDevice(path: "/dev/null", kind: .characterDevice)) {
            try ButtonDevice(spec: ButtonSpec(path: "/dev/null", grab: true), now: at(0))
        }
    }

    @Test func grabIsForInputDevicesOnlyAndAPipeIsReadWithoutIt() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let path = try scratch.fifo("button")
        let device = try ButtonDevice(spec: ButtonSpec(parsing: path + ":grab"), now: at(0))
        let writer = try FifoWriter(path)
        try writer.write(Records.tap(KEY_ENTER))
        #expect(device.read(now: at(0)).count == 1)
    }
}
