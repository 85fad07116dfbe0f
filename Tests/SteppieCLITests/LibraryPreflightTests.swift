import Foundation
import Testing
import SteppieTestSupport

/// A library that cannot be loaded never ends the running service (issue 24, class 7): the
/// binary opens its C libraries on first use (CLazyLoad), so `steppie serve` loads them all before
/// it opens the database or says it is ready, and refuses to start naming the one that failed.
/// The broken copies come first on `LD_LIBRARY_PATH`, as a damaged package would put them. Both
/// binaries when the release one is given (`STEPPIE_RELEASE_BIN`): it is the one devices run.
@Suite struct LibraryPreflightTests {
    static var binaries: [String] { [CLIHarness.binary] + (ReleaseBinary.path.map { [$0] } ?? []) }

    /// Every library the binary opens on first use (Sources/CLazyLoad/stubs_*.c).
    static let sonames = ["libsystemd.so.0", "libsndfile.so.1", "libpulse.so.0", "libgnutls.so.30",
                          "libmicrohttpd.so.12", "libespeak-ng.so.1", "libzip.so.4"]

    /// A broken copy of one library: what is written, and what the refusal must say besides its name.
    struct Broken: CustomTestStringConvertible, Sendable {
        let soname: String
        let make: @Sendable (String) throws -> Void
        let says: String
        var testDescription: String { soname + " (" + says + ")" }
    }

    static let broken: [Broken] = [
        // The first page of the real file: the loader maps past its end and dies of SIGBUS.
        Broken(soname: "libzip.so.4", make: { path in
            let real = try #require(LibraryPreflightTests.installed("libzip.so.4"))
            let head = try #require(FileManager.default.contents(atPath: real)).prefix(4096)
            try Data(head).write(to: URL(fileURLWithPath: path))
        }, says: "SIGBUS"),
        Broken(soname: "libsystemd.so.0", make: { path in try Data().write(to: URL(fileURLWithPath: path)) }, says: "file too short"),
        Broken(soname: "libpulse.so.0", make: { path in
            var generator = SystemRandomNumberGenerator()
            try Data((0..<20_000).map { _ in UInt8.random(in: 0...255, using: &generator) }).write(to: URL(fileURLWithPath: path))
        }, says: "invalid ELF header"),
    ]

    /// Where the loader finds `soname` on this system (`ldconfig -p`, this machine's architecture).
    static func installed(_ soname: String) -> String? {
        let r = BinaryHarness().sh("ldconfig -p")
        for line in r.out.split(separator: "\n") where line.trimmingCharacters(in: .whitespaces).hasPrefix(soname + " ") {
            if line.contains("x86-64"), let arrow = line.range(of: "=> ") {
                return String(line[arrow.upperBound...]).trimmingCharacters(in: .whitespaces)
            }
        }
        let debian = "/usr/lib/x86_64-linux-gnu/" + soname
        return FileManager.default.fileExists(atPath: debian) ? debian : nil
    }

    @Test(arguments: broken)
    func serveRefusesToStartNamingTheBrokenLibrary(_ b: Broken) throws {
        for binary in Self.binaries {
            let h = BinaryHarness()
            let lib = h.directory + "/lib"
            try FileManager.default.createDirectory(atPath: lib, withIntermediateDirectories: true)
            try b.make(lib + "/" + b.soname)
            let started = Date()
            let r = h.sh("exec \"$S\" serve --http none --output null",
                         env: ["S": binary, "LD_LIBRARY_PATH": lib, "STEPPIE_SOCKET": h.directory + "/run/control.sock"], timeout: 30)
            let seconds = Date().timeIntervalSince(started)
            #expect(r.status == 1, "\(binary): status \(r.status): \(r.err)")
            #expect(seconds < 10, "\(binary): took \(seconds) s")
            #expect(r.err.contains("cannot load \(b.soname)") && r.err.contains(b.says), "\(binary): \(r.err)")
            #expect(r.err.contains("reinstall the package's dependencies"), "\(binary): \(r.err)")
            for other in Self.sonames where other != b.soname {
                #expect(!r.err.contains(other), "\(binary) named \(other) too: \(r.err)")
            }
            #expect(!BinaryHarness.trapped(r.err), "\(binary): \(r.err)")
            // Refused before anything was made: no socket (nor its folder), no database.
            #expect(!FileManager.default.fileExists(atPath: h.directory + "/run"), "\(binary): \(h.tree())")
            #expect(!FileManager.default.fileExists(atPath: h.db), "\(binary): \(h.tree())")
            #expect(!FileManager.default.fileExists(atPath: h.directory + "/data"), "\(binary): \(h.tree())")
        }
    }

    /// In Korean too: the catalog's sentence with the library's name.
    @Test func theRefusalIsInTheUsersLanguage() throws {
        for binary in Self.binaries {
            let h = BinaryHarness()
            let lib = h.directory + "/lib"
            try FileManager.default.createDirectory(atPath: lib, withIntermediateDirectories: true)
            try Data().write(to: URL(fileURLWithPath: lib + "/libsystemd.so.0"))
            let r = h.sh("exec \"$S\" serve --http none --output null",
                         env: ["S": binary, "LANG": "ko_KR.UTF-8", "LD_LIBRARY_PATH": lib, "STEPPIE_SOCKET": h.directory + "/run/control.sock"])
            #expect(r.status == 1, "\(binary): \(r.err)")
            #expect(r.err.contains("라이브러리를 불러올 수 없어요: libsystemd.so.0"), "\(binary): \(r.err)")
        }
    }

    /// With intact libraries it starts, and every one of them is already in the service's memory
    /// when it answers: nothing is left to load when a guardian first downloads a backup.
    @Test func serveStartsWithEveryLibraryAlreadyLoaded() throws {
        for binary in Self.binaries {
            let h = BinaryHarness()
            #expect(h.sh("\"$S\" init --child Mina >/dev/null", env: ["S": binary]).status == 0)
            let socket = h.directory + "/run/control.sock"
            var env = ProcessInfo.processInfo.environment
            for key in ["STEPPIE_NOW", "STEPPIE_DATA_DIR", "XDG_RUNTIME_DIR"] { env[key] = nil }
            env["STEPPIE_DB"] = h.db
            env["STEPPIE_SOCKET"] = socket
            env["LANG"] = "en_US.UTF-8"
            let log = h.directory + "/serve.log"
            let serve = try SpawnedProcess(binary, ["serve", "--http", "none", "--output", "null"], environment: env,
                                           stdoutPath: log, stderrPath: log)
            defer { serve.stop(SIGTERM) }
            let ready = waitUntil(timeout: 20) {
                h.sh("\"$S\" service status >/dev/null", env: ["S": binary, "STEPPIE_SOCKET": socket]).status == 0
            }
            #expect(ready, "\(binary): \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
            // Read by another program to its end (Foundation may stop early in a /proc file of size 0).
            let maps = h.sh("cat /proc/\(serve.pid)/maps").out
            for soname in Self.sonames {
                let mapped = maps.contains("/" + soname)
                #expect(mapped, "\(binary): \(soname) is not loaded in the running service")
            }
        }
    }

    /// A command other than `serve` still opens a library on first use and, when one it needs is
    /// broken, names that one (libsystemd under libespeak-ng), not the library that needed it.
    @Test func aBrokenDependencyIsNamedByTheCommandThatMetIt() throws {
        for binary in Self.binaries {
            let h = BinaryHarness()
            let lib = h.directory + "/lib"
            try FileManager.default.createDirectory(atPath: lib, withIntermediateDirectories: true)
            try Data().write(to: URL(fileURLWithPath: lib + "/libsystemd.so.0"))
            let r = h.sh("\"$S\" say --out \"$D/hello.wav\" Hello",
                         env: ["S": binary, "LD_LIBRARY_PATH": lib, "STEPPIE_SOCKET": h.directory + "/none.sock"])
            #expect(r.status == 1, "\(binary): \(r.err)")
            #expect(r.err.contains("cannot load library libsystemd.so.0 (needed by libespeak-ng.so.1)"), "\(binary): \(r.err)")
        }
    }
}
