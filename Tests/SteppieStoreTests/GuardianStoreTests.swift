import Foundation
import Synchronization
import Testing
import SteppieCore
import SteppieSecurity
@testable import SteppieStore

@Suite struct GuardianStoreTests {
    @Test func secretsAreStoredOnlyAsArgon2idHashes() throws {
        let f = try StoreFixture()
        let hasher = try PasswordHasher()
        let pin = "7391"
        let code = "604218"
        try f.store.setGuardianSecrets(pinHash: try hasher.hash(pin), recoveryCodeHash: try hasher.hash(code), at: f.now)
        let raw = try f.rawConnection()
        let hashes = try raw.queryFirst("SELECT guardian_pin_hash, recovery_code_hash FROM device_settings") { ($0.text(0), $0.text(1)) }
        #expect(hashes?.0.hasPrefix("$argon2id$") == true)
        #expect(hashes?.1.hasPrefix("$argon2id$") == true)
        // No column of any row of any table holds either secret.
        let tables = try raw.query("SELECT name FROM sqlite_master WHERE type = 'table'") { $0.text(0) }
        for table in tables {
            for row in try raw.query("SELECT * FROM \(table)", [], { r in (0..<r.columnCount).map { r.value($0) } }) {
                for case .text(let text) in row {
                    #expect(!text.contains(pin), "\(table)")
                    #expect(!text.contains(code), "\(table)")
                }
            }
        }
        // And the file itself (WAL included) holds no plain secret.
        for suffix in ["", "-wal"] {
            if let bytes = FileManager.default.contents(atPath: f.path + suffix) {
                #expect(bytes.range(of: Data(pin.utf8)) == nil)
                #expect(bytes.range(of: Data(code.utf8)) == nil)
            }
        }
        #expect(try f.store.guardianState() == GuardianState(hasPin: true, hasRecoveryCode: true, failedAttempts: 0, lockedUntil: nil, unlockedUntil: nil))
    }

    @Test func plainSecretsAreRefusedWithoutEchoingThem() throws {
        let f = try StoreFixture()
        #expect(throws: StoreError.invalid(ContractViolation(field: "pin", value: "(not a hash)", allowed: "an argon2id hash ($argon2id$…)"))) {
            try f.store.setGuardianSecrets(pinHash: "1234", recoveryCodeHash: nil, at: f.now)
        }
        #expect(try f.store.guardianState().hasPin == false)
    }

    @Test func unlockLocksAfterFiveFailuresAndResetsOnSuccess() throws {
        let f = try StoreFixture()
        let hasher = try PasswordHasher()
        try f.store.setGuardianSecrets(pinHash: try hasher.hash("1111"), recoveryCodeHash: nil, at: f.now)
        let clock = ManualWallClock(f.now)
        for n in 1...4 {
            #expect(try f.store.attemptUnlock(at: clock.now()) { hasher.verify("2222", against: $0) } == .rejected(failedAttempts: n, lockedUntil: nil))
        }
        let fifth = try f.store.attemptUnlock(at: clock.now()) { hasher.verify("2222", against: $0) }
        #expect(fifth == .rejected(failedAttempts: 5, lockedUntil: clock.now().addingTimeInterval(30)))
        // Locked: even the right PIN is not checked.
        var checked = false
        let locked = try f.store.attemptUnlock(at: clock.now().addingTimeInterval(29)) { checked = true; return hasher.verify("1111", against: $0) }
        guard case .lockedOut = locked else { Issue.record("expected lockedOut, got \(locked)"); return }
        #expect(!checked)
        clock.advance(by: 30)
        let sixth = try f.store.attemptUnlock(at: clock.now()) { _ in false }
        #expect(sixth == .rejected(failedAttempts: 6, lockedUntil: clock.now().addingTimeInterval(60)))
        clock.advance(by: 60)
        let ok = try f.store.attemptUnlock(at: clock.now()) { hasher.verify("1111", against: $0) }
        #expect(ok == .accepted(unlockedUntil: clock.now().addingTimeInterval(180)))
        let state = try f.store.guardianState()
        #expect(state.failedAttempts == 0)
        #expect(state.lockedUntil == nil)
        #expect(state.isUnlocked(now: clock.now()))
    }

    @Test func backoffSurvivesReopeningTheDatabase() throws {
        let f = try StoreFixture()
        try f.store.setGuardianSecrets(pinHash: try PasswordHasher().hash("1111"), recoveryCodeHash: nil, at: f.now)
        for _ in 1...5 { _ = try f.store.attemptUnlock(at: f.now) { _ in false } }
        let reopened = try Store(path: f.path, timeZone: f.zone)
        let again = try reopened.attemptUnlock(at: f.now.addingTimeInterval(10)) { _ in true }
        guard case .lockedOut = again else { Issue.record("expected lockedOut, got \(again)"); return }
    }

    @Test func noPinMeansNotSet() throws {
        let f = try StoreFixture()
        #expect(try f.store.attemptUnlock(at: f.now) { _ in true } == .notSet)
    }

    @Test func guardianModeEndsAfterThreeIdleMinutes() throws {
        let f = try StoreFixture()
        try f.store.setGuardianSecrets(pinHash: try PasswordHasher().hash("1111"), recoveryCodeHash: nil, at: f.now)
        let clock = ManualWallClock(f.now)
        _ = try f.store.attemptUnlock(at: clock.now()) { _ in true }
        clock.advance(by: 170)
        #expect(try f.store.touchGuardianSession(at: clock.now()) == clock.now().addingTimeInterval(180))
        clock.advance(by: 179)
        #expect(try f.store.guardianState().isUnlocked(now: clock.now()))
        clock.advance(by: 1)
        #expect(try !f.store.guardianState().isUnlocked(now: clock.now()))
        #expect(try f.store.touchGuardianSession(at: clock.now()) == nil)
        #expect(try f.store.guardianState().unlockedUntil == nil)
    }

    @Test func lockEndsGuardianModeAtOnce() throws {
        let f = try StoreFixture()
        try f.store.setGuardianSecrets(pinHash: try PasswordHasher().hash("1111"), recoveryCodeHash: nil, at: f.now)
        _ = try f.store.attemptUnlock(at: f.now) { _ in true }
        try f.store.lockGuardian(at: f.now)
        #expect(try !f.store.guardianState().isUnlocked(now: f.now))
    }

    @Test func recoveryReplacesBothSecrets() throws {
        let f = try StoreFixture()
        let hasher = try PasswordHasher()
        try f.store.setGuardianSecrets(pinHash: try hasher.hash("1111"), recoveryCodeHash: try hasher.hash("123456"), at: f.now)
        let newPin = try hasher.hash("2468"), newCode = try hasher.hash("654321")
        let wrong = try f.store.recover(at: f.now, newPinHash: newPin, newRecoveryCodeHash: newCode) { hasher.verify("000000", against: $0) }
        #expect(wrong == .rejected(failedAttempts: 1, lockedUntil: nil))
        let right = try f.store.recover(at: f.now, newPinHash: newPin, newRecoveryCodeHash: newCode) { hasher.verify("123456", against: $0) }
        #expect(right == .accepted(unlockedUntil: f.now.addingTimeInterval(180)))
        #expect(try f.store.attemptUnlock(at: f.now) { hasher.verify("2468", against: $0) } == .accepted(unlockedUntil: f.now.addingTimeInterval(180)))
        // The old code no longer works.
        let reuse = try f.store.recover(at: f.now, newPinHash: newPin, newRecoveryCodeHash: newCode) { hasher.verify("123456", against: $0) }
        #expect(reuse == .rejected(failedAttempts: 1, lockedUntil: nil))
    }

    @Test func twoConnectionsRacingAttemptsAreBothHeldToTheBackoff() throws {
        let f = try StoreFixture()
        try f.store.setGuardianSecrets(pinHash: try PasswordHasher().hash("1111"), recoveryCodeHash: nil, at: f.now)
        let path = f.path, zone = f.zone, now = f.now
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
