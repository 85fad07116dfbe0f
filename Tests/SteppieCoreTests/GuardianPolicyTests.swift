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
        let clock = ManualWallClock(Date(timeIntervalSince1970: 1_770_000_000))
        var failures = 0
        var lockedUntil: Date?
        var accepted = 0
        // Try every second for 60 s, like a script would: only attempts outside a lock are judged.
        for _ in 0..<60 {
            if !PinBackoffPolicy.isLocked(until: lockedUntil, now: clock.now()) {
                accepted += 1
                failures += 1
                lockedUntil = policy.lockedUntil(failures: failures, lastFailure: clock.now())
            }
            clock.advance(by: 1)
        }
        // 5 at once, the 6th after 30 s, then locked for 60 s.
        #expect(accepted == 6)
        #expect(accepted <= 8)
    }

    @Test func lockEndsExactlyAtItsEnd() {
        let t = Date(timeIntervalSince1970: 1000)
        let until = policy.lockedUntil(failures: 5, lastFailure: t)
        #expect(until == t.addingTimeInterval(30))
        #expect(PinBackoffPolicy.isLocked(until: until, now: t.addingTimeInterval(29.999)))
        #expect(!PinBackoffPolicy.isLocked(until: until, now: t.addingTimeInterval(30)))
        #expect(policy.lockedUntil(failures: 4, lastFailure: t) == nil)
    }
}

@Suite struct GuardianSessionTests {
    @Test func endsAfterThreeIdleMinutes() {
        let clock = ManualWallClock(Date(timeIntervalSince1970: 1_770_000_000))
        let session = GuardianSession(lastActivity: clock.now())
        #expect(session.isUnlocked(now: clock.now()))
        clock.advance(by: 179)
        #expect(session.isUnlocked(now: clock.now()))
        clock.advance(by: 1)
        #expect(!session.isUnlocked(now: clock.now()))
    }

    @Test func eachCommandExtendsTheSession() {
        let clock = ManualWallClock(Date(timeIntervalSince1970: 1_770_000_000))
        var session = GuardianSession(lastActivity: clock.now())
        for _ in 0..<5 {
            clock.advance(by: 170)
            #expect(session.isUnlocked(now: clock.now()))
            session = session.touched(at: clock.now())
        }
        clock.advance(by: 180)
        #expect(!session.isUnlocked(now: clock.now()))
    }

    @Test func roundTripsThroughUnlockedUntil() {
        let t = Date(timeIntervalSince1970: 5000)
        let session = GuardianSession(lastActivity: t)
        #expect(session.unlockedUntil == t.addingTimeInterval(180))
        #expect(GuardianSession(unlockedUntil: session.unlockedUntil) == session)
    }

    @Test func aClockThatJumpsFarBackEndsTheSession() {
        let t = Date(timeIntervalSince1970: 1_770_000_000)
        let session = GuardianSession(lastActivity: t)
        #expect(session.isUnlocked(now: t.addingTimeInterval(-30)))
        #expect(!session.isUnlocked(now: t.addingTimeInterval(-3600)))
    }
}
