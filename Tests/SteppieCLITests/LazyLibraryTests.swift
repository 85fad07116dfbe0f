import Foundation
import Testing
import SteppieTestSupport

/// The C libraries a command does not use are never loaded (issue 16): speech, sound, TLS, HTTP,
/// systemd and ZIP are opened on first use, which the dynamic loader's own log shows.
@Suite struct LazyLibraryTests {
    static let optional = ["libespeak-ng", "libpulse", "libsndfile", "libgnutls", "libmicrohttpd", "libzip", "libsystemd", "libpq"]

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

    /// espeak-ng's audio device is never made (Sources/CLazyLoad/no_espeak_audio.c): the loader
    /// binds libespeak-ng's call to the definition in `steppie`, and speaking into a file connects
    /// no client to PulseAudio, where the `espeak-ng` command (the control) connects one.
    @Test func speakingIntoAFileConnectsNothingToPulseAudio() throws {
        let h = BinaryHarness()
        let bindings = h.sh("$S say --out $D/hello.wav Hello", env: ["LD_DEBUG": "bindings", "STEPPIE_SOCKET": h.directory + "/none.sock"])
        #expect(bindings.status == 0)
        let line = bindings.err.split(separator: "\n").first { $0.contains("`create_audio_device_object'") }.map(String.init) ?? ""
        #expect(line.contains("libespeak-ng") && line.contains("/steppie [0]"), "bound as: \(line)")

        let server = try PrivatePulseServer()
        try server.start()
        var env = server.environment
        env["PULSE_SERVER"] = server.address
        env["STEPPIE_SOCKET"] = h.directory + "/none.sock"
        /// The index the server gave to this `pactl` (each new client gets the next number).
        func ownIndex() -> Int? {
            let r = h.sh("pactl list clients short", env: env)
            return r.out.split(separator: "\n").compactMap { Int($0.split(separator: "\t").first ?? "") }.max()
        }
        let before = try #require(ownIndex())
        #expect(h.sh("$S say --out $D/a.wav 'Brush your teeth.'", env: env).status == 0)
        let afterOurs = try #require(ownIndex())
        #expect(afterOurs == before + 1, "steppie connected \(afterOurs - before - 1) client(s)")
        #expect(h.sh("espeak-ng -v en -w $D/b.wav 'Brush your teeth.'", env: env).status == 0)
        let afterTheirs = try #require(ownIndex())
        #expect(afterTheirs == afterOurs + 2, "the control connected \(afterTheirs - afterOurs - 1) client(s)")
    }
}
