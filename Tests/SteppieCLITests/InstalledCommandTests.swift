import Foundation
import Testing

/// `make install PREFIX=<tmp>` and then `steppie` run **by name** through `PATH`, from a folder
/// that is neither the prefix nor a source checkout: the binary must find its data through
/// `/proc/self/exe`, not through `argv[0]` read against the current folder (issue 15, item 1).
@Suite struct InstalledCommandTests {
    /// Runs `script` with `/bin/sh` in `directory`, with `PATH` starting at `bin` and no variable
    /// that could point the binary at its data.
    static func sh(_ script: String, in directory: URL, path bin: String, lang: String = "en_US.UTF-8") throws -> (status: Int32, out: String, err: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", script]
        p.currentDirectoryURL = directory
        var env = ProcessInfo.processInfo.environment
        for key in ["STEPPIE_DATA_DIR", "STEPPIE_DB", "STEPPIE_NOW", "LC_ALL", "LC_MESSAGES", "SWIFT_BACKTRACE"] { env[key] = nil }
        env["PATH"] = bin + ":" + (env["PATH"] ?? "/usr/bin:/bin")
        env["LANG"] = lang
        env["XDG_DATA_HOME"] = directory.appendingPathComponent("xdg").path
        p.environment = env
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = FileHandle.nullDevice
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
    }

    @Test func theInstalledCommandStartsByNameFromAnotherFolder() throws {
        let binary = CLIHarness.binary
        #expect(FileManager.default.isExecutableFile(atPath: binary), "build first: swift build")
        let tmp = FileManager.default.temporaryDirectory.appendingPathComponent("steppie-install-\(UUID().uuidString)")
        let elsewhere = tmp.appendingPathComponent("somewhere/else")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: tmp) }
        let prefix = tmp.appendingPathComponent("prefix")

        let install = try SystemdUnitTests.run(["make", "-s", "install", "PREFIX=\(prefix.path)", "STEPPIE_BIN=\(binary)"],
                                               in: CLIHarness.repository)
        #expect(install.status == 0, "\(install.output)")
        let bin = prefix.appendingPathComponent("bin").path

        // By name, in English and in Korean, from a folder with no checkout above it.
        let en = try Self.sh("steppie --help", in: elsewhere, path: bin)
        #expect(en.status == 0, "\(en.err)")
        #expect(en.out.hasPrefix("Steppie: guides a child through daily routines with gentle speech, sounds and haptics.\n"), "\(en.out)")
        #expect(en.err.isEmpty, "\(en.err)")
        let ko = try Self.sh("steppie --help", in: elsewhere, path: bin, lang: "ko_KR.UTF-8")
        #expect(ko.status == 0 && ko.out.hasPrefix("스테피: 부드러운 음성, 소리, 진동으로 아이의 하루 루틴을 안내해요.\n"), "\(ko.out)\(ko.err)")
        // `which` sees the installed file, so it really ran through PATH.
        #expect(try Self.sh("command -v steppie", in: elsewhere, path: bin).out == bin + "/steppie\n")

        // The data folder is used for more than help: the catalogs check passes on the installed copy,
        // and a command that reads the database runs.
        let check = try Self.sh("steppie l10n check", in: elsewhere, path: bin)
        #expect(check.status == 0, "\(check.out)\(check.err)")
        let initialised = try Self.sh("steppie init --child Mina && steppie today --child Mina", in: elsewhere, path: bin)
        #expect(initialised.status == 0 && initialised.out.contains("Wake up"), "\(initialised.out)\(initialised.err)")

        // Through a symbolic link in another bin folder, run from the root.
        let links = tmp.appendingPathComponent("links")
        try FileManager.default.createDirectory(at: links, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: links.appendingPathComponent("steppie").path, withDestinationPath: bin + "/steppie")
        let linked = try Self.sh("cd / && steppie --help", in: elsewhere, path: links.path)
        #expect(linked.status == 0 && linked.out.hasPrefix("Steppie:"), "\(linked.out)\(linked.err)")

        // The check can fail: the same binary copied without its share/ folder finds no catalogs.
        let lonely = tmp.appendingPathComponent("lonely/bin")
        try FileManager.default.createDirectory(at: lonely, withIntermediateDirectories: true)
        // The copy is made by `cp` in the child shell, never by this test process: a write descriptor held
        // here would be inherited by any process another test forks meanwhile, and exec of a file open
        // for writing anywhere fails with ETXTBSY ("Text file busy", seen once in CI).
        let missing = try Self.sh("cp '\(bin)/steppie' '\(lonely.path)/steppie' && steppie --help", in: elsewhere, path: lonely.path)
        #expect(missing.status == 1 && missing.err.contains("cannot load the message catalogs"), "\(missing.out)\(missing.err)")
    }
}
