import Foundation
import Testing
@testable import SteppieCLI

/// `steppie kiosk enable|disable --root DIR` (#26 item 2): every file it writes, checked without
/// touching this machine; systemd accepts the units; `disable` leaves DIR as it was.
@Suite struct KioskCommandTests {
    /// Every path under `root` with its kind (f, l → target, d), sorted.
    static func tree(_ root: String) -> [String] {
        let fm = FileManager.default
        var out: [String] = []
        guard let e = fm.enumerator(atPath: root) else { return [] }
        while let rel = e.nextObject() as? String {
            let path = root + "/" + rel
            if let target = try? fm.destinationOfSymbolicLink(atPath: path) { out.append("l \(rel) -> \(target)") }
            else {
                var isDir: ObjCBool = false
                _ = fm.fileExists(atPath: path, isDirectory: &isDir)
                out.append("\(isDir.boolValue ? "d" : "f") \(rel)")
            }
        }
        return out.sorted()
    }

    @Test func enableWritesEveryPieceAndDisableLeavesTheFolderAsItWas() throws {
        let h = CLIHarness()
        let root = h.directory.appendingPathComponent("root").path
        try FileManager.default.createDirectory(atPath: root + "/etc", withIntermediateDirectories: true)
        try Data("keep me\n".utf8).write(to: URL(fileURLWithPath: root + "/etc/hostname"))
        let before = Self.tree(root)

        let on = h.run(["kiosk", "enable", "--user", "mina-kiosk", "--root", root])
        #expect(on.status == 0, "\(on.err)")
        // Each change is printed, and nothing on this machine changed.
        #expect(on.out.contains("wrote \(root)/etc/sysusers.d/steppie-kiosk.conf\n"))
        #expect(on.out.hasSuffix("Nothing on this machine changed: the files are under \(root).\n"), "\(on.out)")
        func read(_ path: String) throws -> String { try String(contentsOfFile: root + path, encoding: .utf8) }
        let users = try read("/etc/sysusers.d/steppie-kiosk.conf")
        #expect(users.contains("u mina-kiosk - \"Steppie kiosk\" /home/mina-kiosk /bin/sh\n"))
        for group in ["input", "video", "audio", "render"] { #expect(users.contains("m mina-kiosk \(group)\n")) }
        #expect(try read("/etc/systemd/system/getty@tty1.service.d/steppie-autologin.conf")
            .contains("ExecStart=\nExecStart=-/sbin/agetty --autologin mina-kiosk --noclear %I $TERM\n"))
        #expect(FileManager.default.fileExists(atPath: root + "/var/lib/systemd/linger/mina-kiosk"))
        let units = "/home/mina-kiosk/.config/systemd/user"
        #expect(try read(units + "/steppie.service").contains("ExecStart=/usr/bin/steppie serve\n"))
        #expect(try read(units + "/steppie-kiosk.service").contains("--app=http://127.0.0.1:8470/"))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: root + units + "/default.target.wants/steppie-kiosk.service")
                == units + "/steppie-kiosk.service")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: root + "/etc/systemd/system/multi-user.target.wants/steppie-kiosk-noblank.service")
                == "/etc/systemd/system/steppie-kiosk-noblank.service")
        #expect(try read("/etc/systemd/system/steppie-kiosk-noblank.service").contains("ExecStart=/usr/bin/setterm --blank 0"))

        // systemd accepts every unit it wrote: the system ones as files, the user ones as user units.
        let run = h.directory.appendingPathComponent("run")
        try FileManager.default.createDirectory(at: run, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let noblank = try SystemdUnitTests.run(["systemd-analyze", "verify", root + "/etc/systemd/system/steppie-kiosk-noblank.service"],
                                               in: h.directory)
        #expect(noblank.status == 0 && noblank.output.isEmpty, "\(noblank.output)")
        for unit in ["steppie-kiosk.service"] {
            let r = try SystemdUnitTests.run(["systemd-analyze", "--user", "verify", root + units + "/" + unit], in: h.directory,
                                             environment: ["XDG_RUNTIME_DIR": run.path])
            #expect(r.status == 0 && r.output.isEmpty, "\(unit): \(r.output)")
        }
        // Again: already set up, nothing new. For another user: refused.
        #expect(h.run(["kiosk", "enable", "--user", "mina-kiosk", "--root", root]).out == "The kiosk is already set up for mina-kiosk.\n")
        #expect(h.run(["kiosk", "enable", "--user", "other", "--root", root]).status == 1)

        // A file edited since is kept and said so; everything else goes, and the folders made for it.
        let off = h.run(["kiosk", "disable", "--root", root])
        #expect(off.status == 0, "\(off.err)")
        #expect(off.out.hasSuffix("The kiosk is off: the device starts to a login prompt again.\n"))
        #expect(Self.tree(root) == before, "\(Self.tree(root))")
        #expect(try read("/etc/hostname") == "keep me\n")
        #expect(h.run(["kiosk", "disable", "--root", root]).out.contains("nothing to undo"))
    }

    @Test func aFileThatIsNotOursIsNeverReplaced() throws {
        let h = CLIHarness()
        let root = h.directory.appendingPathComponent("root").path
        let dropIn = root + "/etc/systemd/system/getty@tty1.service.d"
        try FileManager.default.createDirectory(atPath: dropIn, withIntermediateDirectories: true)
        try Data("[Service]\n# the admin's own\n".utf8).write(to: URL(fileURLWithPath: dropIn + "/steppie-autologin.conf"))
        let before = Self.tree(root)
        let r = h.run(["kiosk", "enable", "--root", root])
        #expect(r.status == 1)
        #expect(r.err == "steppie: \(dropIn)/steppie-autologin.conf already exists and was not written by steppie kiosk enable; nothing was changed\n")
        #expect(Self.tree(root) == before)
    }

    @Test func anEditedFileIsKeptByDisable() throws {
        let h = CLIHarness()
        let root = h.directory.appendingPathComponent("root").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        #expect(h.run(["kiosk", "enable", "--root", root]).status == 0)
        let unit = root + "/etc/systemd/system/steppie-kiosk-noblank.service"
        try Data("# edited\n".utf8).write(to: URL(fileURLWithPath: unit))
        let off = h.run(["kiosk", "disable", "--root", root], locale: "ko")
        #expect(off.out.contains("남겨 두었어요: \(unit)"), "\(off.out)")
        #expect(FileManager.default.fileExists(atPath: unit))
        #expect(!FileManager.default.fileExists(atPath: root + "/etc/sysusers.d/steppie-kiosk.conf"))
    }

    @Test func aBadUserNameIsAUsageMistake() {
        let h = CLIHarness()
        let r = h.run(["kiosk", "enable", "--user", "Root;rm", "--root", h.directory.path])
        #expect(r.status == 64)
        #expect(r.err.contains("a user name such as kiosk"))
    }
}
