import Foundation

/// Where the control socket lives: `STEPPIE_SOCKET`, else `$XDG_RUNTIME_DIR/steppie/control.sock`,
/// else `/tmp/steppie-<uid>/control.sock` (a folder only this user can enter).
public enum ServicePaths {
    public static func socket(environment: [String: String]) -> String {
        if let explicit = environment["STEPPIE_SOCKET"], !explicit.isEmpty { return explicit }
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty { return runtime + "/steppie/control.sock" }
        return "/tmp/steppie-\(getuid())/control.sock"
    }

    /// The single-instance lock of the service on `database`: beside it, hidden.
    public static func lock(database: String) -> String {
        let url = URL(fileURLWithPath: database)
        return url.deletingLastPathComponent().appendingPathComponent("." + url.lastPathComponent + ".serve.lock").path
    }
}
