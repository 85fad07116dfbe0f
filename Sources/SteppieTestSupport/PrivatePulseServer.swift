import Foundation

/// A private PulseAudio server with a null sink at a fixed socket, which a test starts, kills
/// (SIGKILL by PID, like a crash) and starts again — the test-side twin of scripts/with-pulse.sh.
public final class PrivatePulseServer {
    public let base: String
    public var address: String { "unix:\(base)/native" }
    private var process: SpawnedProcess?

    public init() throws {
        base = NSTemporaryDirectory() + "steppie-pa-\(UUID().uuidString.prefix(8))"
        for d in ["xdg", "run", "state"] {
            try FileManager.default.createDirectory(atPath: "\(base)/\(d)", withIntermediateDirectories: true)
        }
    }

    public var environment: [String: String] {
        {
            var env = ProcessInfo.processInfo.environment
            env["HOME"] = base
            env["XDG_RUNTIME_DIR"] = "\(base)/xdg"
            env["PULSE_RUNTIME_PATH"] = "\(base)/run"
            env["PULSE_STATE_PATH"] = "\(base)/state"
            env["PULSE_SERVER"] = ""
            return env
        }()
    }

    public func start() throws {
        try? FileManager.default.removeItem(atPath: "\(base)/native")   // a killed server leaves its socket
        process = try SpawnedProcess("/usr/bin/pulseaudio", [
            "-n", "--daemonize=no", "--exit-idle-time=-1", "--disallow-exit", "--use-pid-file=no",
            "--log-target=file:\(base)/pa.log",
            "--load=module-native-protocol-unix socket=\(base)/native auth-anonymous=1",
            "--load=module-null-sink sink_name=steppie_test rate=22050 channels=1",
            "--load=module-always-sink"], environment: environment)
        guard waitUntil(timeout: 15, { answers() }) else {
            throw CocoaError(.executableLoad, userInfo: ["reason": "the private PulseAudio server did not answer"])
        }
    }

    public func answers() -> Bool {
        guard let p = try? SpawnedProcess("/usr/bin/pactl", ["-s", address, "info"], environment: environment) else { return false }
        return p.wait(timeout: 5) == 0
    }

    /// Kills the server abruptly (SIGKILL to its PID), like a crash.
    public func kill() {
        process?.stop(SIGKILL)
        process = nil
    }

    deinit {
        kill()
        try? FileManager.default.removeItem(atPath: base)
    }
}

