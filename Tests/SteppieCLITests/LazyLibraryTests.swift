import Foundation
import Testing

/// The C libraries a command does not use are never loaded (issue 16): speech, sound, TLS, HTTP,
/// systemd and ZIP are opened on first use, which the dynamic loader's own log shows.
@Suite struct LazyLibraryTests {
    static let optional = ["libespeak-ng", "libpulse", "libsndfile", "libgnutls", "libmicrohttpd", "libzip", "libsystemd"]

    /// The optional libraries the loader reported loading while `script` ran.
    static func loaded(_ h: BinaryHarness, _ script: String) -> (Set<String>, BinaryHarness.Result) {
        let r = h.sh(script, env: ["LD_DEBUG": "files", "STEPPIE_SOCKET": h.directory + "/none.sock"])
        var found = Set<String>()
        for line in r.err.split(separator: "\n") where line.contains("file=") {
            for name in optional where line.contains("file=\(name).so") || line.contains("file=\(name)-") { found.insert(name) }
        }
        return (found, r)
    }

    @Test func commandsThatDoNotSpeakLoadNoneOfThem() throws {
        let h = BinaryHarness()
        #expect(h.sh("$S init --child Mina >/dev/null").status == 0)
        for script in ["$S --help", "$S today", "$S routines --json", "$S complete", "$S history --month 2026-11 >/dev/null || true"] {
            let (found, r) = Self.loaded(h, script)
            #expect(r.err.contains("file="), "LD_DEBUG gave no log for \(script)")
            #expect(found.isEmpty, "\(script) loaded \(found.sorted())")
        }
    }

    @Test func eachLibraryIsLoadedWhenItIsFirstUsed() throws {
        let h = BinaryHarness()
        #expect(h.sh("$S init --child Mina >/dev/null").status == 0)
        let (speech, r1) = Self.loaded(h, "$S say --out $D/hello.wav Hello")
        #expect(r1.status == 0)
        #expect(speech.contains("libespeak-ng"))
        #expect(!speech.contains("libzip") && !speech.contains("libgnutls") && !speech.contains("libmicrohttpd"))
        let wav = try Data(contentsOf: URL(fileURLWithPath: h.directory + "/hello.wav"))
        #expect(wav.count > 10_000)   // 16-bit speech, not an empty file

        let (zip, r2) = Self.loaded(h, "$S backup create --out $D/b.zip >/dev/null")
        #expect(r2.status == 0)
        #expect(zip == ["libzip"])
        #expect(FileManager.default.fileExists(atPath: h.directory + "/b.zip"))
    }
}
