import Foundation
import Testing
@testable import SteppieCore

@Suite struct PinBackoffPolicyTests {
    let policy = PinBackoffPolicy.standard

    @Test(arguments: [(0, 0.0), (1, 0), (4, 0), (5, 30), (6, 60), (7, 120), (8, 240), (10, 960), (11, 1920), (12, 3600), (13, 3600), (1000, 3600)])
    func lockTable(failures: Int, seconds: Double) {
        #expect(policy.lockDuration(afterFailures: failures) == seconds)
    }

    @Test func manualClockWalksThroughTheBackoff() {
        let clock = ManualSecureClock(wall: Date(timeIntervalSince1970: 1_770_000_000))
        var failures = 0
        var lock: SecureDeadline?
        var accepted = 0
        // Try every second for 60 s, like a script would: only attempts outside a lock are judged.
        for _ in 0..<60 {
            if policy.lockRemaining(until: lock, failures: failures, now: clock.now()) <= 0 {
                accepted += 1
                failures += 1
                lock = policy.lockedUntil(failures: failures, lastFailure: clock.now())
            }
            clock.advance(by: 1)
        }
        // 5 at once, the 6th after 30 s, then locked for 60 s.
        #expect(accepted == 6)
    }

    @Test func lockEndsExactlyAtItsEnd() {
        let t = SecureInstant(wall: Date(timeIntervalSince1970: 1000), boot: BootTime(id: "b", seconds: 50))
        let until = policy.lockedUntil(failures: 5, lastFailure: t)
        #expect(until == SecureDeadline(wall: Date(timeIntervalSince1970: 1030), boot: BootTime(id: "b", seconds: 80)))
        let at = { (s: Double) in SecureInstant(wall: Date(timeIntervalSince1970: 1000 + s), boot: BootTime(id: "b", seconds: 50 + s)) }
        #expect(policy.lockRemaining(until: until, failures: 5, now: at(29.999)) > 0)
        #expect(policy.lockRemaining(until: until, failures: 5, now: at(30)) <= 0)
        #expect(policy.lockedUntil(failures: 4, lastFailure: t) == nil)
    }

    /// (stored deadline boot, now boot, wall seconds left, boot seconds left, across boots) → seconds left.
    @Test(arguments: [
        ("b", "b", 1e9, 20.0, true, 20.0),     // same boot: the boot clock decides, whatever the wall says
        ("b", "b", -1e9, 20.0, true, 20.0),
        ("b", "c", 25.0, 0.0, true, 25.0),     // rebooted: the wall clock decides...
        ("b", "c", 1e9, 0.0, true, 30.0),      // ...capped at the longest lock
        ("b", "c", 25.0, 0.0, false, 0.0),     // a session does not survive a reboot
        ("-", "c", 1e9, 0.0, false, 30.0),     // no boot clock stored: the wall clock, capped
    ])
    func deadlineRules(stored: String, current: String, wallLeft: Double, bootLeft: Double, acrossBoots: Bool, expected: Double) {
        let now = SecureInstant(wall: Date(timeIntervalSince1970: 1_000_000), boot: BootTime(id: current, seconds: 100))
        let deadline = SecureDeadline(wall: now.wall.addingTimeInterval(wallLeft),
                                      boot: stored == "-" ? nil : BootTime(id: stored, seconds: 100 + bootLeft))
        let left = deadline.remaining(at: now, longest: 30, acrossBoots: acrossBoots)
        #expect(max(left, 0) == expected)
    }

    @Test func bootTimeRoundTripsThroughItsStoredForm() {
        let t = BootTime(id: "0f2c9a7e-1b2c-4d5e-8f90-123456789abc", seconds: 12345.678)
        #expect(BootTime(stored: t.stored) == t)
        #expect(BootTime(stored: "") == nil)
        #expect(BootTime(stored: "x -1") == nil)
        #expect(BootTime(stored: "x nan") == nil)
    }
}

@Suite struct GuardianSessionTests {
    @Test func endsAfterThreeIdleMinutes() {
        let clock = ManualSecureClock(wall: Date(timeIntervalSince1970: 1_770_000_000))
        let session = GuardianSession(lastActivity: clock.now())
        #expect(session.isUnlocked(at: clock.now()))
        clock.advance(by: 179)
        #expect(session.isUnlocked(at: clock.now()))
        clock.advance(by: 1)
        #expect(!session.isUnlocked(at: clock.now()))
    }

    @Test func eachCommandExtendsTheSession() {
        let clock = ManualSecureClock(wall: Date(timeIntervalSince1970: 1_770_000_000))
        var session = GuardianSession(lastActivity: clock.now())
        for _ in 0..<5 {
            clock.advance(by: 170)
            #expect(session.isUnlocked(at: clock.now()))
            session = session.touched(at: clock.now())
        }
        clock.advance(by: 180)
        #expect(!session.isUnlocked(at: clock.now()))
    }

    @Test func wallClockJumpsNeitherEndNorStretchTheSession() {
        let clock = ManualSecureClock(wall: Date(timeIntervalSince1970: 1_770_000_000))
        let session = GuardianSession(lastActivity: clock.now())
        clock.setWall(Date(timeIntervalSince1970: 1_770_000_000 - 86400))
        #expect(session.remaining(at: clock.now()) == 180)
        clock.setWall(Date(timeIntervalSince1970: 1_770_000_000 + 86400))
        #expect(session.remaining(at: clock.now()) == 180)
        clock.advance(by: 180)
        #expect(!session.isUnlocked(at: clock.now()))
    }

    @Test func aRebootEndsTheSession() {
        let clock = ManualSecureClock(wall: Date(timeIntervalSince1970: 1_770_000_000))
        let session = GuardianSession(lastActivity: clock.now())
        clock.reboot(bootId: "next", after: 5)
        #expect(!session.isUnlocked(at: clock.now()))
    }
}
