import Foundation
import Synchronization
import Testing
import SteppieCore
import SteppieSecurity
import SteppieTestSupport
@testable import SteppieStore

@Suite struct GuardianStoreTests {
    @Test func secretsAreStoredOnlyAsArgon2idHashes() throws {
        let f = try StoreFixture()
        let hasher = try PasswordHasher()
        let pin = "7391"
        let code = "604218"
        try f.store.setGuardianSecrets(pinHash: try hasher.hash(pin), recoveryCodeHash: try hasher.hash(code), at: f.secure)
        let raw = try f.rawConnection()
        let hashes = try raw.queryFirst("SELECT guardian_pin_hash, recovery_code_hash FROM device_settings") { ($0.text(0), $0.text(1)) }
        #expect(hashes?.0.hasPrefix("$argon2id$") == true)
        #expect(hashes?.1.hasPrefix("$argon2id$") == true)
        // No column of any row of any table holds either secret (stamps and hashes hold digit runs
        // in which the digits turn up by chance: a stored secret stands on its own, SecretScan).
        let tables = try raw.query("SELECT name FROM sqlite_master WHERE type = 'table'") { $0.text(0) }
        for table in tables {
            for row in try raw.query("SELECT * FROM \(table)", [], { r in (0..<r.columnCount).map { r.value($0) } }) {
                for case .text(let text) in row {
                    #expect(!SecretScan.standsAlone(pin, in: text), "\(table)")
                    #expect(!SecretScan.standsAlone(code, in: text), "\(table)")
                }
            }
        }
        // And the file itself (WAL included) holds no plain secret.
        for suffix in ["", "-wal"] {
            if let bytes = FileManager.default.contents(atPath: f.path + suffix) {
                #expect(!SecretScan.standsAlone(pin, in: bytes))
                #expect(!SecretScan.standsAlone(code, in: bytes))
            }
        }
        #expect(try f.store.guardianState() == GuardianState(hasPin: true, hasRecoveryCode: true, failedAttempts: 0, lock: nil, session: nil))
    }

    @Test func plainSecretsAreRefusedWithoutEchoingThem() throws {
        let f = try StoreFixture()
        #expect(throws: StoreError.invalid(ContractViolation(field: "pin", value: "(not a hash)", allowed: "an argon2id hash ($argon2id$…)"))) {
            try f.store.setGuardianSecrets(pinHash: "1234", recoveryCodeHash: nil, at: f.secure)
        }
        #expect(try f.store.guardianState().hasPin == false)
    }

    @Test func unlockLocksAfterFiveFailuresAndResetsOnSuccess() throws {
        let f = try StoreFixture()
        let hasher = try PasswordHasher()
        let clock = ManualSecureClock(wall: f.now)
        try f.store.setGuardianSecrets(pinHash: try hasher.hash("1111"), recoveryCodeHash: nil, at: clock.now())
        for n in 1...4 {
            #expect(try f.store.attemptUnlock(at: clock.now()) { hasher.verify("2222", against: $0) } == .rejected(failedAttempts: n, lockSeconds: nil))
        }
        let fifth = try f.store.attemptUnlock(at: clock.now()) { hasher.verify("2222", against: $0) }
        #expect(fifth == .rejected(failedAttempts: 5, lockSeconds: 30))
        // Locked: even the right PIN is not checked.
        clock.advance(by: 29)
        var checked = false
        let locked = try f.store.attemptUnlock(at: clock.now()) { checked = true; return hasher.verify("1111", against: $0) }
        #expect(locked == .lockedOut(seconds: 1))
        #expect(!checked)
        clock.advance(by: 1)
        let sixth = try f.store.attemptUnlock(at: clock.now()) { _ in false }
        #expect(sixth == .rejected(failedAttempts: 6, lockSeconds: 60))
        clock.advance(by: 60)
        let ok = try f.store.attemptUnlock(at: clock.now()) { hasher.verify("1111", against: $0) }
        #expect(ok == .accepted(sessionSeconds: 180))
        let state = try f.store.guardianState()
        #expect(state.failedAttempts == 0)
        #expect(state.lock == nil)
        #expect(state.isUnlocked(at: clock.now()))
    }

    @Test func aWallClockJumpNeitherShortensNorStretchesTheLock() throws {
        let f = try StoreFixture()
        let clock = ManualSecureClock(wall: f.now)
        try f.store.setGuardianSecrets(pinHash: try PasswordHasher().hash("1111"), recoveryCodeHash: nil, at: clock.now())
        for _ in 1...5 { _ = try f.store.attemptUnlock(at: clock.now()) { _ in false } }
        // The wall clock jumps a century ahead: the boot clock still says 30 s are left.
        clock.setWall(f.now.addingTimeInterval(100 * 365 * 86400))
        #expect(try f.store.attemptUnlock(at: clock.now()) { _ in true } == .lockedOut(seconds: 30))
        // And a century back: still 30 s, not a century.
        clock.setWall(f.now.addingTimeInterval(-100 * 365 * 86400))
        #expect(try f.store.guardianState().lockRemaining(at: clock.now()) == 30)
        clock.advance(by: 30)
        #expect(try f.store.attemptUnlock(at: clock.now()) { _ in true } == .accepted(sessionSeconds: 180))
    }

    @Test func afterARebootTheLockRunsOnTheWallClockCappedAndTheSessionEnds() throws {
        let f = try StoreFixture()
        let clock = ManualSecureClock(wall: f.now)
        try f.store.setGuardianSecrets(pinHash: try PasswordHasher().hash("1111"), recoveryCodeHash: nil, at: clock.now())
        _ = try f.store.attemptUnlock(at: clock.now()) { _ in true }
        #expect(try f.store.guardianState().isUnlocked(at: clock.now()))
        for _ in 1...5 { _ = try f.store.attemptUnlock(at: clock.now()) { _ in false } }
        clock.reboot(bootId: "second-boot", after: 10)
        // The session does not survive a reboot; the lock has 20 s left by the wall clock.
        #expect(try !f.store.guardianState().isUnlocked(at: clock.now()))
        #expect(try f.store.guardianState().lockRemaining(at: clock.now()) == 20)
        // A wall clock set back a year after the reboot still leaves at most the 30 s lock.
        clock.setWall(f.now.addingTimeInterval(-365 * 86400))
        #expect(try f.store.guardianState().lockRemaining(at: clock.now()) == 30)
    }

    @Test func backoffSurvivesReopeningTheDatabase() throws {
        let f = try StoreFixture()
        try f.store.setGuardianSecrets(pinHash: try PasswordHasher().hash("1111"), recoveryCodeHash: nil, at: f.secure)
        for _ in 1...5 { _ = try f.store.attemptUnlock(at: f.secure) { _ in false } }
        let reopened = try Store(path: f.path, timeZone: f.zone)
        let later = SecureInstant(wall: f.now.addingTimeInterval(10), boot: BootTime(id: "test-boot", seconds: 1010))
        let again = try reopened.attemptUnlock(at: later) { _ in true }
        #expect(again == .lockedOut(seconds: 20))
    }

    @Test func noPinMeansNotSet() throws {
        let f = try StoreFixture()
        #expect(try f.store.attemptUnlock(at: f.secure) { _ in true } == .notSet)
    }

    @Test func guardianModeEndsAfterThreeIdleMinutes() throws {
        let f = try StoreFixture()
        let clock = ManualSecureClock(wall: f.now)
        try f.store.setGuardianSecrets(pinHash: try PasswordHasher().hash("1111"), recoveryCodeHash: nil, at: clock.now())
        _ = try f.store.attemptUnlock(at: clock.now()) { _ in true }
        clock.advance(by: 170)
        #expect(try f.store.touchGuardianSession(at: clock.now()) == SecureDeadline(after: 180, from: clock.now()))
        clock.advance(by: 179)
        #expect(try f.store.guardianState().isUnlocked(at: clock.now()))
        clock.advance(by: 1)
        #expect(try !f.store.guardianState().isUnlocked(at: clock.now()))
        #expect(try f.store.touchGuardianSession(at: clock.now()) == nil)
        #expect(try f.store.guardianState().session == nil)
    }

    @Test func aWallClockSetBackDoesNotStretchTheSession() throws {
        let f = try StoreFixture()
        let clock = ManualSecureClock(wall: f.now)
        try f.store.setGuardianSecrets(pinHash: try PasswordHasher().hash("1111"), recoveryCodeHash: nil, at: clock.now())
        _ = try f.store.attemptUnlock(at: clock.now()) { _ in true }
        clock.advance(by: 180)
        clock.setWall(f.now.addingTimeInterval(-3600))
        #expect(try !f.store.guardianState().isUnlocked(at: clock.now()))
    }

    @Test func lockEndsGuardianModeAtOnce() throws {
        let f = try StoreFixture()
        try f.store.setGuardianSecrets(pinHash: try PasswordHasher().hash("1111"), recoveryCodeHash: nil, at: f.secure)
        _ = try f.store.attemptUnlock(at: f.secure) { _ in true }
        try f.store.lockGuardian(at: f.secure)
        #expect(try !f.store.guardianState().isUnlocked(at: f.secure))
    }

    @Test func recoveryReplacesBothSecrets() throws {
        let f = try StoreFixture()
        let hasher = try PasswordHasher()
        try f.store.setGuardianSecrets(pinHash: try hasher.hash("1111"), recoveryCodeHash: try hasher.hash("123456"), at: f.secure)
        let newPin = try hasher.hash("2468"), newCode = try hasher.hash("654321")
        let wrong = try f.store.recover(at: f.secure, newPinHash: newPin, newRecoveryCodeHash: newCode) { hasher.verify("000000", against: $0) }
        #expect(wrong == .rejected(failedAttempts: 1, lockSeconds: nil))
        let right = try f.store.recover(at: f.secure, newPinHash: newPin, newRecoveryCodeHash: newCode) { hasher.verify("123456", against: $0) }
        #expect(right == .accepted(sessionSeconds: 180))
        #expect(try f.store.attemptUnlock(at: f.secure) { hasher.verify("2468", against: $0) } == .accepted(sessionSeconds: 180))
        // The old code no longer works.
        let reuse = try f.store.recover(at: f.secure, newPinHash: newPin, newRecoveryCodeHash: newCode) { hasher.verify("123456", against: $0) }
        #expect(reuse == .rejected(failedAttempts: 1, lockSeconds: nil))
    }

    @Test func twoConnectionsRacingAttemptsAreBothHeldToTheBackoff() throws {
        let f = try StoreFixture()
        try f.store.setGuardianSecrets(pinHash: try PasswordHasher().hash("1111"), recoveryCodeHash: nil, at: f.secure)
        let path = f.path, zone = f.zone, now = f.secure
        let outcomes = Mutex<[GuardianAttempt]>([])
        let failures = Mutex<[String]>([])
        // Two stores (two connections, as two processes would have) fire 15 wrong PINs each at the same instant.
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            do {
                let store = try Store(path: path, timeZone: zone)
                let hasher = try PasswordHasher()
                for _ in 0..<15 {
                    let outcome = try store.attemptUnlock(at: now) { hasher.verify("9999", against: $0) }
                    outcomes.withLock { $0.append(outcome) }
                }
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        #expect(failures.withLock { $0 } == [])
        let all = outcomes.withLock { $0 }
        let judged = all.filter { if case .rejected = $0 { true } else { false } }
        let refused = all.filter { if case .lockedOut = $0 { true } else { false } }
        #expect(all.count == 30)
        #expect(judged.count == 5)
        #expect(refused.count == 25)
        #expect(try f.store.guardianState().failedAttempts == 5)
    }
}
