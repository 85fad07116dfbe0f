import Foundation
import Testing
import SteppieStore
@testable import SteppieCLI

/// `backup create --out FOLDER` writes the default file name into that folder, as docs/backup.md
/// says (issue 24, class 10); a file name is used as given; a FIFO or a device is still refused
/// untouched.
@Suite struct BackupOutFolderTests {
    @Test func aFolderGetsTheDefaultNameInsideIt() throws {
        let h = CLIHarness()
        #expect(h.run(["init", "--child", "Mina"]).status == 0)
        let folder = h.directory.appendingPathComponent("usb stick")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for out in [folder.path, folder.path + "/"] {
            let created = h.run(["backup", "create", "--out", out])
            #expect(created.status == 0, "\(out): \(created.err)")
            // Golden: the clock is 2026-03-02 07:00:00 in Seoul.
            let path = folder.path + "/steppie-backup-20260302-070000.zip"
            #expect(created.out == "Backup written: \(path) (\(try Self.size(path)) bytes; 6 routines, 0 log entries, 0 photos).\n", "\(created.out)")
            #expect(created.err.isEmpty, "\(created.err)")
            #expect(h.run(["backup", "verify", path]).status == 0)
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["steppie-backup-20260302-070000.zip"])
        }
        // A file name is a file name.
        let named = folder.appendingPathComponent("mine.zip").path
        #expect(h.run(["backup", "create", "--out", named]).status == 0)
        #expect(FileManager.default.fileExists(atPath: named))
        // JSON names the file written.
        let json = h.run(["backup", "create", "--out", folder.path, "--json"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        #expect(report["path"] as? String == folder.path + "/steppie-backup-20260302-070000.zip")
    }

    @Test func theHelpSaysAFolderIsFine() {
        let h = CLIHarness()
        let help = h.run(["backup", "create", "--help"])
        #expect(help.out.contains("--out FILE|FOLDER"), "\(help.out)")
        #expect(help.out.contains("a folder"), "\(help.out)")
    }

    static func size(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? -1
    }
}
