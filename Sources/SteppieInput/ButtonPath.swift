import SteppieFiles

/// Where a button stored for the device may be (`steppie buttons add PATH`): an input device node
/// under `/dev/input` (plugged in or not: the service waits for it), or, for tests and replays,
/// an existing FIFO or regular file anywhere else. Anything else (a missing path outside
/// `/dev/input`, a folder, a socket, `/dev/null` or another character device outside
/// `/dev/input`) would only ever be a button that never works.
public enum ButtonPath {
    /// The folder of the kernel's input device nodes (`eventN`, `by-id/`, `by-path/`).
    public static let inputFolder = "/dev/input/"

    /// Checks an absolute, plainly written path (see `Validator.devicePath`) against the disk.
    public static func checkStorable(_ path: String) throws(ButtonPathError) {
        let kind = OwnerOnly.kind(of: path)
        if path.hasPrefix(inputFolder) {
            // Not plugged in yet is fine; a folder (`/dev/input/by-id`) is not a button.
            if let kind, !ButtonDevice.readableKinds.contains(kind) { throw .unsupportedKind(path: path, kind: kind) }
            return
        }
        guard let kind else { throw .outsideInputFolder(path: path) }
        guard kind == .fifo || kind == .regular else { throw .unsupportedKind(path: path, kind: kind) }
    }
}

/// Why a path cannot be stored as a button, as a value the caller says from the catalogs.
public enum ButtonPathError: Error, Equatable, Sendable {
    /// Outside `/dev/input` and nothing is there.
    case outsideInputFolder(path: String)
    /// Something is there, but not an input device (or, outside `/dev/input`, not a FIFO or file).
    case unsupportedKind(path: String, kind: FileKind)

    /// The catalog key of the message (`Localization/*/buttons.json`).
    public var catalogKey: String {
        switch self {
        case .outsideInputFolder: "button.path.outsideInputFolder"
        case .unsupportedKind: "button.path.unsupportedKind"
        }
    }

    /// The message's placeholders; `kind` is itself a catalog key (`file.kind.*`) to say first.
    public var arguments: [String: String] {
        switch self {
        case .outsideInputFolder(let path): ["path": path]
        case .unsupportedKind(let path, let kind): ["path": path, "kind": "file.kind.\(kind.rawValue)"]
        }
    }
}
