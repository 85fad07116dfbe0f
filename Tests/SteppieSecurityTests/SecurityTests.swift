import Foundation
import Testing
@testable import SteppieSecurity

@Suite struct PasswordHasherTests {
    @Test func hashIsArgon2idAndVerifiesOnlyTheRightSecret() throws {
        let hasher = try PasswordHasher()
        let hash = try hasher.hash("4821")
        #expect(hash.hasPrefix("$argon2id$v=19$m=65536,t=2,p=1$"))
        // Nothing but the parameters, a 16-byte salt and a 32-byte digest (unpadded base64): the
        // PIN is in it nowhere, though its four digits may turn up by chance inside the base64.
        let fields = hash.split(separator: "$", omittingEmptySubsequences: false).map(String.init)
        #expect(fields.count == 6 && fields[4].count == 22 && fields[5].count == 43)
        #expect(fields.dropFirst(4).allSatisfy { $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "/") } })
        #expect(Data(base64Encoded: fields[5] + "=")?.count == 32)
        #expect(hasher.verify("4821", against: hash))
        #expect(!hasher.verify("4822", against: hash))
        #expect(!hasher.verify("", against: hash))
        #expect(!hasher.needsRehash(hash))
    }

    @Test func sameSecretHashesDifferently() throws {
        let hasher = try PasswordHasher()
        let a = try hasher.hash("123456")
        let b = try hasher.hash("123456")
        #expect(a != b)   // fresh salt each time
        #expect(hasher.verify("123456", against: a) && hasher.verify("123456", against: b))
    }

    @Test(arguments: ["", "not a hash", "$argon2i$v=19$m=65536,t=2,p=1$c2FsdHNhbHRzYWx0c2FsdA$aGFzaA",
                      "$argon2id$v=19$m=65536,t=2,p=1$broken", String(repeating: "$argon2id$", count: 40)])
    func malformedHashesNeverMatchAndNeedRehash(_ hash: String) throws {
        let hasher = try PasswordHasher()
        #expect(!hasher.verify("1234", against: hash))
        #expect(hasher.needsRehash(hash))
    }

    @Test func otherLimitsNeedRehash() throws {
        let weak = try PasswordHasher(limits: .init(operations: 1, memoryBytes: 8 * 1024 * 1024))
        let hash = try weak.hash("1234")
        #expect(try PasswordHasher().needsRehash(hash))
        #expect(try PasswordHasher().verify("1234", against: hash))   // still verifies with its own parameters
    }

    @Test func impossibleLimitsThrowATypedError() throws {
        let absurd = try PasswordHasher(limits: .init(operations: 0, memoryBytes: 1))
        #expect(throws: SecurityError.self) { try absurd.hash("1234") }
    }

    @Test func interactiveHashTakesAboutATenthToAThirdOfASecond() throws {
        let hasher = try PasswordHasher()
        var times: [Double] = []
        for _ in 0..<3 {
            let start = ContinuousClock.now
            _ = try hasher.hash("0000")
            let elapsed = ContinuousClock.now - start
            times.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        }
        let median = times.sorted()[1]
        print("argon2id interactive hash: \(times.map { String(format: "%.0f ms", $0 * 1000) }.joined(separator: ", ")) (median \(String(format: "%.0f", median * 1000)) ms)")
        // A loose bound: slow enough to be a real argon2id, fast enough for an interactive command on a shared machine.
        #expect(median > 0.02)
        #expect(median < 2.0)
    }
}

@Suite struct SHA256Tests {
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
    ])
    func knownVectors(_ input: String, _ expected: String) {
        #expect(SHA256.hex(of: Data(input.utf8)) == expected)
    }

    @Test func incrementalEqualsOneShot() {
        let data = Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        var hasher = SHA256()
        hasher.update(data.prefix(12_345))
        hasher.update(Data())
        hasher.update(data.dropFirst(12_345))
        #expect(SHA256.hex(hasher.finalize()) == SHA256.hex(of: data))
    }

    /// Several MiB in uneven chunks (nettle's SHA-NI blocks and buffered tails) against coreutils.
    @Test func largeInputAgreesWithSha256sum() throws {
        var rng = SystemRandomNumberGenerator()
        let data = Data((0..<(3 << 20) + 12_345).map { _ in UInt8.random(in: 0...255, using: &rng) })
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("steppie-sha-\(UUID().uuidString)")
        try data.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        var hasher = SHA256()
        var at = 0, step = 1
        while at < data.count {
            let end = min(data.count, at + step)
            hasher.update(data[at..<end])
            at = end
            step = step * 7 % 100_003 + 1
        }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        p.arguments = [file.path]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(text.split(separator: " ").first.map(String.init) == SHA256.hex(hasher.finalize()))
    }
}

@Suite struct SecretsTests {
    @Test func recoveryCodesAreSixDigitsAndVary() {
        let codes = (0..<200).map { _ in Secrets.randomRecoveryCode() }
        #expect(codes.allSatisfy { $0.utf8.count == 6 && $0.utf8.allSatisfy { $0 >= 48 && $0 <= 57 } })
        #expect(Set(codes).count > 190)
    }
}
