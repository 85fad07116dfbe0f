import Foundation
import Testing
import SteppieTestSupport
import SteppieCore
import SteppieStore
@testable import SteppieCLI

@Suite struct GuardianCommandTests {
    /// A database with Mina's morning set and a PIN 8361 set; returns the recovery code shown.
    static func withPin(_ h: CLIHarness) throws -> String {
        #expect(h.run(["init", "--child", "Mina"]).status == 0)
        let set = h.run(["guardian", "set-pin", "--pin-stdin"], input: ["8361"])
        #expect(set.status == 0)
        let code = try #require(set.out.split(separator: "\n").first { $0.hasPrefix("Recovery code: ") }).dropFirst(15)
        #expect(code.count == 6)
        return String(code)
    }

    @Test func withoutAPinChangesNeedNoUnlockAndPrintNothingExtra() {
        let h = CLIHarness()
        #expect(h.run(["init", "--child", "Mina"]).status == 0)
        let r = h.run(["children", "add", "Joon"])
        #expect(r.status == 0 && r.err.isEmpty)
        #expect(r.out.hasPrefix("Added child Joon ("))
    }

    @Test func guardianModeEndsAfterThreeIdleMinutes() throws {
        let h = CLIHarness()
        _ = try Self.withPin(h)
        let refused = h.run(["children", "add", "Joon"])
        #expect(refused.status == 1)
        #expect(refused.err == "steppie: guardian mode is off; turn it on with: steppie guardian unlock\n")
        #expect(h.run(["guardian", "unlock", "--pin-stdin"], input: ["8361"]).out
                == "Guardian mode is on until 07:03; each guardian command extends it by 3 minutes.\n")
        h.clock.advance(by: 179)
        #expect(h.run(["children", "add", "Joon"]).status == 0)          // extends to +359 s
        h.clock.advance(by: 179)
        #expect(h.run(["children", "list"]).status == 0)                  // a looking command does not extend it
        #expect(h.run(["guardian", "status"]).out.contains("on (1 s left without use)"))
        h.clock.advance(by: 1)
        #expect(h.run(["children", "rename", "Joon", "Jun"]).status == 1)
        #expect(h.run(["guardian", "status"]).out == "PIN: set\nGuardian mode: off\n")
        #expect(try Store(path: h.db, timeZone: h.zone).children().map(\.displayName) == ["Mina", "Joon"])
    }

    @Test func lockEndsGuardianModeAtOnce() throws {
        let h = CLIHarness()
        _ = try Self.withPin(h)
        #expect(h.run(["guardian", "unlock", "--pin-stdin"], input: ["8361"]).status == 0)
        #expect(h.run(["guardian", "lock"]).out == "Guardian mode is off.\n")
        #expect(h.run(["children", "add", "Joon"]).status == 1)
    }

    @Test func wrongPinsStartTheBackoffAndRefusalsShowTheTimeLeft() throws {
        let h = CLIHarness()
        _ = try Self.withPin(h)
        for n in 1...4 {
            let r = h.run(["guardian", "unlock", "--pin-stdin"], input: ["0000"])
            // Issue 15: one failed attempt, not "1 failed attempts".
            #expect(r.status == 1 && r.err == "steppie: that PIN is not right (\(n) failed attempt\(n == 1 ? "" : "s")).\n")
        }
        #expect(h.run(["guardian", "unlock", "--pin-stdin"], input: ["0000"]).err
                == "steppie: that PIN is not right (5 failed attempts). Too many attempts. Wait 30 s, then try again.\n")
        h.clock.advance(by: 10)
        // Even the right PIN is not checked while locked.
        #expect(h.run(["guardian", "unlock", "--pin-stdin"], input: ["8361"]).err
                == "steppie: Too many attempts. Wait 20 s, then try again.\n")
        #expect(h.run(["children", "add", "Joon"]).err
                == "steppie: guardian mode is off, and PIN entry is locked for another 20 s; then: steppie guardian unlock\n")
        h.clock.advance(by: 20)
        #expect(h.run(["guardian", "unlock", "--pin-stdin"], input: ["8361"]).status == 0)
        #expect(try Store(path: h.db, timeZone: h.zone).guardianState().failedAttempts == 0)
    }

    @Test func changingThePinNeedsTheCurrentOneAndMalformedPinsAreRefused() throws {
        let h = CLIHarness()
        _ = try Self.withPin(h)
        let wrong = h.run(["guardian", "set-pin", "--pin-stdin"], input: ["1111", "2222"])
        #expect(wrong.status == 1 && wrong.err.contains("not right"))
        let short = h.run(["guardian", "set-pin", "--pin-stdin"], input: ["8361", "12a"])
        #expect(short.status == 1 && short.err == "steppie: pin cannot be (3 characters); allowed: exactly 4 digits 0-9\n")
        // In Korean the rule and the value are said in Korean too (contract.allowed.*, contract.value.*).
        let shortKo = h.run(["guardian", "set-pin", "--pin-stdin"], input: ["8361", "1"], locale: "ko")
        #expect(shortKo.err == "steppie: pin에 (1자) 값은 쓸 수 없어요. 허용 범위: 0~9 숫자 정확히 4자리\n", "\(shortKo.err)")
        // The right current PIN turned guardian mode on, yet changing the PIN still asks for it.
        let noCurrent = h.run(["guardian", "set-pin", "--pin-stdin"], input: ["2468"])
        #expect(noCurrent.status == 1 && noCurrent.err.contains("not right"))
        let ok = h.run(["guardian", "set-pin", "--pin-stdin"], input: ["8361", "2468"])
        #expect(ok.status == 0 && ok.out.hasPrefix("PIN changed.\nRecovery code: "))
        #expect(h.run(["guardian", "lock"]).status == 0)
        #expect(h.run(["guardian", "unlock", "--pin-stdin"], input: ["2468"]).status == 0)
        #expect(h.run(["guardian", "unlock", "--pin-stdin"], input: []).err == "steppie: standard input ended before the PIN or code was read\n")
    }

    @Test func recoveryResetsThePinAndReplacesTheCode() throws {
        let h = CLIHarness()
        let code = try Self.withPin(h)
        let r = h.run(["guardian", "recover", "--pin-stdin"], input: [code, "5790"])
        #expect(r.status == 0)
        #expect(r.out.hasPrefix("PIN reset with the recovery code; the old code no longer works.\nRecovery code: "))
        #expect(!SecretScan.standsAlone(code, in: r.out))
        #expect(h.run(["guardian", "lock"]).status == 0)
        #expect(h.run(["guardian", "recover", "--pin-stdin"], input: [code, "1357"]).err.contains("recovery code is not right"))
        #expect(h.run(["guardian", "unlock", "--pin-stdin"], input: ["5790"]).status == 0)
    }

    @Test func pinCommandsOnAFreshDevice() {
        let h = CLIHarness()
        #expect(h.run(["guardian", "unlock", "--pin-stdin"], input: ["1234"]).err
                == "steppie: no guardian PIN is set yet; set one with: steppie guardian set-pin\n")
        #expect(h.run(["guardian", "status", "--json"]).out.contains("\"pinSet\" : false"))
    }
}
