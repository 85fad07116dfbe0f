import Foundation
import Testing

/// `make install` puts the systemd user unit beside the binary, and `systemd-analyze verify`
/// accepts the installed unit without a single warning, both as a user unit and as a plain file.
/// No running systemd is needed: `systemd-analyze --user` only wants an `XDG_RUNTIME_DIR`, which
/// the test makes (0700) in its own folder.
@Suite struct SystemdUnitTests {
    struct Run {
        let status: Int32
        let output: String
    }

    /// Runs `arguments` with standard output and error together.
    static func run(_ arguments: [String], in directory: URL, environment: [String: String] = [:]) throws -> Run {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = arguments
        p.currentDirectoryURL = directory
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        p.environment = env
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = pipe
        try p.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return Run(status: p.terminationStatus, output: String(decoding: data, as: UTF8.self))
    }

    @Test func makeInstallPutsAUnitThatSystemdVerifiesWithoutWarnings() throws {
        let repository = CLIHarness.repository
        let binary = CLIHarness.binary
        #expect(FileManager.default.isExecutableFile(atPath: binary), "build first: swift build")
        let tmp = FileManager.default.temporaryDirectory.appendingPathComponent("steppie-unit-\(UUID().uuidString)")
        let runtime = tmp.appendingPathComponent("run")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: tmp) }
        let prefix = tmp.appendingPathComponent("prefix").path

        let install = try Self.run(["make", "-s", "install", "PREFIX=\(prefix)", "STEPPIE_BIN=\(binary)"], in: repository)
        #expect(install.status == 0, "\(install.output)")
        let unit = prefix + "/lib/systemd/user/steppie.service"
        let text = try String(contentsOfFile: unit, encoding: .utf8)
        #expect(text.split(separator: "\n").filter { $0.hasPrefix("ExecStart=") } == ["ExecStart=\(prefix)/bin/steppie serve"])
        for line in ["Type=notify", "NotifyAccess=main", "Restart=on-failure", "RestartSec=2", "WatchdogSec=30", "NoNewPrivileges=yes"] {
            #expect(text.split(separator: "\n").contains(Substring(line)), "\(line)")
        }
        #expect(FileManager.default.isExecutableFile(atPath: prefix + "/bin/steppie"))
        #expect(FileManager.default.fileExists(atPath: prefix + "/share/steppie/Localization/en/schedule-cli.json"))

        let analyze = "systemd-analyze"
        let asUser = try Self.run([analyze, "--user", "verify", unit], in: tmp, environment: ["XDG_RUNTIME_DIR": runtime.path])
        #expect(asUser.status == 0 && asUser.output.isEmpty, "systemd-analyze --user verify: \(asUser.output)")
        let asFile = try Self.run([analyze, "verify", unit], in: tmp)
        #expect(asFile.status == 0 && asFile.output.isEmpty, "systemd-analyze verify: \(asFile.output)")

        // The kiosk unit: cage + Chromium on the child's page, verified the same way.
        let kiosk = prefix + "/lib/systemd/user/steppie-kiosk.service"
        let kioskText = try String(contentsOfFile: kiosk, encoding: .utf8)
        #expect(kioskText.contains("--kiosk --app=http://127.0.0.1:8470/"))
        #expect(kioskText.contains("ExecStart=/usr/bin/cage "))
        let kioskUser = try Self.run([analyze, "--user", "verify", kiosk], in: tmp, environment: ["XDG_RUNTIME_DIR": runtime.path])
        #expect(kioskUser.status == 0 && kioskUser.output.isEmpty, "systemd-analyze --user verify kiosk: \(kioskUser.output)")

        // A centre's hub: a system unit under a dynamic user, no password on its command line, verified too.
        let hubUnit = prefix + "/lib/systemd/system/steppie-hub.service"
        let hubText = try String(contentsOfFile: hubUnit, encoding: .utf8)
        let hubLines = hubText.split(separator: "\n").map(String.init)
        #expect(hubLines.filter { $0.hasPrefix("ExecStart=") }
                == ["ExecStart=\(prefix)/bin/steppie hub --postgres service=steppie-hub --listen 0.0.0.0:8471"])
        for line in ["DynamicUser=yes", "NoNewPrivileges=yes", "ProtectSystem=strict", "CapabilityBoundingSet=",
                     "LoadCredential=pgpass:/etc/steppie/hub.pgpass", "Environment=PGPASSFILE=%d/pgpass", "WantedBy=multi-user.target"] {
            #expect(hubLines.contains(line), "\(line)")
        }
        #expect(!hubText.lowercased().contains("password="), "a password in the unit is readable by every local user")
        let hubVerified = try Self.run([analyze, "verify", hubUnit], in: tmp)
        #expect(hubVerified.status == 0 && hubVerified.output.isEmpty, "systemd-analyze verify hub: \(hubVerified.output)")

        // The check can see a warning: the same unit with a misspelt key is reported.
        let broken = tmp.appendingPathComponent("steppie.service").path
        try text.replacingOccurrences(of: "WatchdogSec=30", with: "WatchdogSecs=30").write(toFile: broken, atomically: true, encoding: .utf8)
        let warned = try Self.run([analyze, "--user", "verify", broken], in: tmp, environment: ["XDG_RUNTIME_DIR": runtime.path])
        #expect(warned.output.contains("Unknown key 'WatchdogSecs'"), "\(warned.output)")

        let uninstall = try Self.run(["make", "-s", "uninstall", "PREFIX=\(prefix)"], in: repository)
        #expect(uninstall.status == 0 && !FileManager.default.fileExists(atPath: unit) && !FileManager.default.fileExists(atPath: kiosk)
                && !FileManager.default.fileExists(atPath: hubUnit))
    }
}
