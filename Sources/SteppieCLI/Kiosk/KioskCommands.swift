import Foundation
import SteppieCore
import SteppieSecurity

/// `steppie kiosk enable|disable [--user NAME] [--root DIR]` (#26 item 2): the six set-up steps of
/// `docs/kiosk.md` in one command, each change printed; `disable` undoes exactly what `enable`
/// recorded in its manifest (a file changed since is kept and said so). `--root DIR` writes the
/// same files under DIR and runs nothing, so a test (or a curious guardian) sees every file.
enum KioskCommands {
    /// Why the kiosk could not be set up or taken down, said in the user's language (paths are detail).
    struct Failure: Error, CatalogDescribable {
        let key: String
        let arguments: [String: String]

        var catalogMessage: CatalogMessage {
            CatalogMessage(key, arguments.mapValues { $0.hasPrefix("/") ? .detail($0) : .text($0) })
        }
    }

    /// What `enable` did, kept at `KioskPlan.manifestPath` under the root.
    struct Manifest: Codable, Equatable {
        var user: String
        /// The user did not exist before (`disable` removes it again; its home stays).
        var createdUser: Bool
        /// Every file and link written, with the SHA-256 of what was written (a link: of its target).
        var entries: [Written]
        /// Folders that did not exist before, deepest last.
        var directories: [String]

        struct Written: Codable, Equatable {
            var path: String
            var sha256: String
            var link: Bool
        }
    }

    static func enable(_ c: Context) throws -> Int32 { try enableChecked(c) }

    static func disable(_ c: Context) throws -> Int32 { try disableChecked(c) }

    /// The folder written under: `--root`, else the machine (which needs root).
    private static func root(_ c: Context) throws -> (path: String, machine: Bool) {
        if let root = c.invocation.value("--root") {
            return (URL(fileURLWithPath: root).standardizedFileURL.path, false)
        }
        guard geteuid() == 0 else { throw Failure(key: "cli.kiosk.error.notRoot", arguments: [:]) }
        return ("", true)
    }

    private static func binary(_ c: Context) -> String {
        let path = c.env.executablePath
        guard !path.isEmpty, path.hasPrefix("/"), !path.hasSuffix(".xctest") else { return "/usr/bin/steppie" }
        return URL(fileURLWithPath: path).resolvingSymlinksInPath().path
    }

    static func digest(_ text: String) -> String {
        var h = SHA256()
        h.update(Array(text.utf8))
        return h.finalHex()
    }

    private static func enableChecked(_ c: Context) throws -> Int32 {
        let user = c.invocation.typed(KioskUser.self, "--user")?.name ?? "kiosk"
        let (root, machine) = try root(c)
        let plan = KioskPlan(user: user, steppie: binary(c))
        let fm = FileManager.default
        let manifestFile = root + KioskPlan.manifestPath
        if let data = fm.contents(atPath: manifestFile), let old = try? JSONDecoder().decode(Manifest.self, from: data) {
            c.console.print(c.text(old.user == user ? "cli.kiosk.already" : "cli.kiosk.otherUser", ["user": old.user]))
            return old.user == user ? 0 : Steppie.exitFailure
        }
        // Nothing is written when any target exists already: it is not ours to replace.
        for entry in plan.entries where (try? fm.attributesOfItem(atPath: root + entry.path)) != nil {
            throw Failure(key: "cli.kiosk.error.exists", arguments: ["path": root + entry.path])
        }
        let existed = machine && getpwnam(user) != nil
        var manifest = Manifest(user: user, createdUser: machine && !existed, entries: [], directories: [])
        func makeParents(of path: String) throws {
            var missing: [String] = []
            var dir = (path as NSString).deletingLastPathComponent
            while !dir.isEmpty, dir != "/", !fm.fileExists(atPath: root + dir) {
                missing.append(dir)
                dir = (dir as NSString).deletingLastPathComponent
            }
            for d in missing.reversed() {
                try fm.createDirectory(atPath: root + d, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o755])
                manifest.directories.append(d)
                c.console.print(c.text("cli.kiosk.madeFolder", ["path": root + d]))
            }
        }
        func record() throws {
            try makeParents(of: KioskPlan.manifestPath)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            try encoder.encode(manifest).write(to: URL(fileURLWithPath: manifestFile), options: .atomic)
        }
        do {
            for entry in plan.entries {
                try makeParents(of: entry.path)
                switch entry {
                case .file(let path, let content):
                    try Data(content.utf8).write(to: URL(fileURLWithPath: root + path), options: .atomic)
                    try fm.setAttributes([.posixPermissions: 0o644], ofItemAtPath: root + path)
                    manifest.entries.append(.init(path: path, sha256: digest(content), link: false))
                    c.console.print(c.text("cli.kiosk.wrote", ["path": root + path]))
                case .link(let path, let target):
                    try fm.createSymbolicLink(atPath: root + path, withDestinationPath: target)
                    manifest.entries.append(.init(path: path, sha256: digest(target), link: true))
                    c.console.print(c.text("cli.kiosk.linked", ["path": root + path, "target": target]))
                }
                try record()   // after every step: a failure half-way still leaves what disable needs
            }
        } catch let f as Failure {
            throw f
        } catch {
            try? record()
            throw Failure(key: "cli.kiosk.error.write", arguments: ["reason": "\(type(of: error))"])
        }
        guard machine else {
            c.console.print(c.text("cli.kiosk.rootDone", ["root": root]))
            return 0
        }
        try run(["/usr/bin/systemd-sysusers", "/etc/sysusers.d/steppie-kiosk.conf"], c)
        if manifest.createdUser { c.console.print(c.text("cli.kiosk.createdUser", ["user": user, "groups": KioskPlan.groups.joined(separator: ", ")])) }
        // The user's own folders belong to the user (its units and, later, its database).
        if let pw = getpwnam(user) {
            for path in [plan.home] + manifest.directories.filter({ $0.hasPrefix(plan.home) }) + manifest.entries.map(\.path).filter({ $0.hasPrefix(plan.home) }) {
                lchown(path, pw.pointee.pw_uid, pw.pointee.pw_gid)
            }
            chmod(plan.home, 0o700)
        }
        try run(["/usr/bin/systemctl", "daemon-reload"], c)
        c.console.print(c.text("cli.kiosk.done", ["user": user]))
        return 0
    }

    private static func disableChecked(_ c: Context) throws -> Int32 {
        let (root, machine) = try root(c)
        let fm = FileManager.default
        let manifestFile = root + KioskPlan.manifestPath
        guard let data = fm.contents(atPath: manifestFile), let manifest = try? JSONDecoder().decode(Manifest.self, from: data) else {
            c.console.print(c.text("cli.kiosk.notEnabled"))
            return 0
        }
        if let asked = c.invocation.typed(KioskUser.self, "--user")?.name, asked != manifest.user {
            throw Failure(key: "cli.kiosk.otherUser", arguments: ["user": manifest.user])
        }
        for entry in manifest.entries.reversed() {
            let path = root + entry.path
            let now: String? = entry.link ? (try? fm.destinationOfSymbolicLink(atPath: path))
                                          : fm.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
            guard let now else { continue }
            if digest(now) == entry.sha256 {
                try? fm.removeItem(atPath: path)
                c.console.print(c.text("cli.kiosk.removed", ["path": path]))
            } else {
                c.console.print(c.text("cli.kiosk.keptChanged", ["path": path]))
            }
        }
        try? fm.removeItem(atPath: manifestFile)
        for dir in manifest.directories.reversed() {
            // Only folders left empty: a folder holding anything else (the child's data) stays.
            if (try? fm.contentsOfDirectory(atPath: root + dir))?.isEmpty == true {
                try? fm.removeItem(atPath: root + dir)
                c.console.print(c.text("cli.kiosk.removedFolder", ["path": root + dir]))
            }
        }
        if machine {
            if manifest.createdUser, getpwnam(manifest.user) != nil {
                try run(["/usr/sbin/userdel", manifest.user], c)
                c.console.print(c.text("cli.kiosk.removedUser", ["user": manifest.user, "home": "/home/\(manifest.user)"]))
            }
            try run(["/usr/bin/systemctl", "daemon-reload"], c)
        }
        c.console.print(c.text("cli.kiosk.disabled"))
        return 0
    }

    /// Runs a system tool, its output shown; a failure names it.
    private static func run(_ arguments: [String], _ c: Context) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: arguments[0])
        p.arguments = Array(arguments.dropFirst())
        do { try p.run() } catch {
            throw Failure(key: "cli.kiosk.error.command", arguments: ["command": arguments.joined(separator: " "), "status": "-"])
        }
        p.waitUntilExit()
        guard p.terminationStatus == 0 else {
            throw Failure(key: "cli.kiosk.error.command", arguments: ["command": arguments.joined(separator: " "), "status": String(p.terminationStatus)])
        }
    }
}
