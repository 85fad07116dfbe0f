import Foundation
import Testing
@testable import SteppieCLI
import SteppieTestSupport

/// Real `steppie` processes: secrets never in arguments, environment, output or the database file;
/// two guessing processes held to the stored backoff.
@Suite(.serialized) struct GuardianProcessTests {
    /// A running `steppie` with piped standard input, output and error.
    final class Running {
        let process = Process()
        let input = Pipe()
        let output = Pipe()
        let errors = Pipe()

        init(_ args: [String]) throws {
            process.executableURL = URL(fileURLWithPath: CLIHarness.binary)
            process.arguments = args
            process.standardInput = input
            process.standardOutput = output
            process.standardError = errors
            try process.run()
        }

        /// What the process exposes to other users: its argument list and environment.
        var exposed: String {
            let pid = process.processIdentifier
            let cmdline = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline"))) ?? Data()
            let environ = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/environ"))) ?? Data()
            return String(decoding: cmdline + environ, as: UTF8.self) + GuardianProcessTests.shell("ps", ["-eo", "args"])
        }

        func send(_ line: String) { input.fileHandleForWriting.write(Data((line + "\n").utf8)) }

        func finish() -> (Int32, String) {
            try? input.fileHandleForWriting.close()
            let out = output.fileHandleForReading.readDataToEndOfFile() + errors.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (process.terminationStatus, String(decoding: out, as: UTF8.self))
        }
    }

    static func shell(_ tool: String, _ args: [String], environment: [String: String] = [:]) -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = [tool] + args
        p.environment = ProcessInfo.processInfo.environment.merging(environment) { _, b in b }
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = pipe
        guard (try? p.run()) != nil else { return "" }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// Every byte of the database and its journal files.
    static func databaseBytes(_ db: String) -> [UInt8] {
        ["", "-wal", "-shm", "-journal"].compactMap { try? Data(contentsOf: URL(fileURLWithPath: db + $0)) }
            .flatMap { Array($0) + [0] }
    }

    @Test func aSecretIsFoundWhereItStandsAloneNotInsideADigitRun() {
        #expect(SecretScan.standsAlone("8361", in: "--pin 8361"))
        #expect(SecretScan.standsAlone("8361", in: "('8361',"))
        #expect(SecretScan.standsAlone("8361", in: [0x15, 0x38, 0x33, 0x36, 0x31, 0x00]))
        #expect(SecretScan.standsAlone("8361", in: "8361"))
        #expect(!SecretScan.standsAlone("8361", in: "0193ab8361cd"))
        #expect(!SecretScan.standsAlone("8361", in: "283615"))
        #expect(!SecretScan.standsAlone("8361", in: "836"))
    }

    @Test func secretsAppearOnlyAsArgon2idHashes() throws {
        let h = CLIHarness()
        #expect(h.run(["init", "--child", "Mina"]).status == 0)
        let pin = "8361", newPin = "5790"
        let base = ["--db", h.db, "--locale", "en"]

        let setPin = try Running(["guardian", "set-pin", "--pin-stdin"] + base)
        #expect(!SecretScan.standsAlone(pin, in: setPin.exposed))
        setPin.send(pin)
        let (status, out) = setPin.finish()
        #expect(status == 0)
        let code = String(try #require(out.split(separator: "\n").first { $0.hasPrefix("Recovery code: ") }).dropFirst(15))
        #expect(out.components(separatedBy: code).count == 2, "the recovery code is shown exactly once")
        #expect(!SecretScan.standsAlone(pin, in: out))

        let recover = try Running(["guardian", "recover", "--pin-stdin"] + base)
        recover.send(code)
        // Waiting for the new PIN now, with the code already read.
        #expect(!SecretScan.standsAlone(code, in: recover.exposed))
        recover.send(newPin)
        #expect(!SecretScan.standsAlone(newPin, in: recover.exposed))
        let (recovered, recoverOut) = recover.finish()
        #expect(recovered == 0)
        #expect(!SecretScan.standsAlone(code, in: recoverOut) && !SecretScan.standsAlone(newPin, in: recoverOut))
        let newCode = String(try #require(recoverOut.split(separator: "\n").first { $0.hasPrefix("Recovery code: ") }).dropFirst(15))

        let rows = Self.shell("sqlite3", [h.db, "SELECT guardian_pin_hash, recovery_code_hash FROM device_settings"])
            .split(separator: "\n").flatMap { $0.split(separator: "|") }
        #expect(rows.count == 2)
        #expect(rows.allSatisfy { $0.hasPrefix("$argon2id$v=19$m=") })
        // Stamps, ids and hashes hold digit runs in which four digits turn up by chance; a stored
        // secret stands on its own (SecretScan), in the file's bytes and in the dumped values.
        let bytes = Self.databaseBytes(h.db)
        let dump = Self.shell("sqlite3", [h.db, ".dump"])
        for secret in [pin, newPin, code, newCode] {
            #expect(!SecretScan.standsAlone(secret, in: bytes), "secret in the database file")
            #expect(!SecretScan.standsAlone(secret, in: dump), "secret among the database's values")
        }
        #expect(dump.contains("$argon2id$"))
    }

    @Test func twoGuessingProcessesAreHeldToTheBackoff() throws {
        let script = CLIHarness.repository.appendingPathComponent("scripts/pin-attack.sh").path
        // A 5 s window: the standard policy allows 5 checked attempts, then locks for 30 s.
        let out = Self.shell("bash", [script], environment: ["WINDOW": "5", "STEPPIE_BIN": CLIHarness.binary])
        let line = try #require(out.split(separator: "\n").last.map(String.init), "script printed nothing")
        let counts = line.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        // "checked attempts in 5 s: N (process A a, process B b; refused unchecked r; failed_pin_attempts …: s)"
        try #require(counts.count == 6, "unexpected output: \(out)")
        let (checked, a, b, stored) = (counts[1], counts[2], counts[3], counts[5])
        #expect(checked == a + b)
        #expect(checked == stored)
        #expect(checked >= 1 && checked <= 5)
    }
}
