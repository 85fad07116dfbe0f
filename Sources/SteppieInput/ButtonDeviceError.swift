import SteppieFiles
import SteppieCore

/// Why an input device could not be opened or grabbed, as a value the caller says from the catalogs.
public enum ButtonDeviceError: Error, Equatable, Sendable {
    /// Nothing is at the path (not plugged in, or a typo).
    case missing(path: String)
    /// The path names a folder, a socket, a disk or a character device that is not evdev.
    case notAnInputDevice(path: String, kind: FileKind)
    /// The user may not read the device: not in the `input` group and no udev rule.
    case permissionDenied(path: String)
    /// `exclusive use` (EVIOCGRAB) refused, usually because another program holds the device.
    case grabFailed(path: String, errno: Int32, reason: String)
    /// Any other failure of `operation` on the device.
    case system(path: String, operation: String, errno: Int32, reason: String)

    /// The catalog key of the message (`Localization/*/buttons.json`).
    public var catalogKey: String {
        switch self {
        case .missing: "button.device.missing"
        case .notAnInputDevice: "button.device.notInputDevice"
        case .permissionDenied: "button.device.permissionDenied"
        case .grabFailed: "button.device.grabFailed"
        case .system: "button.device.failed"
        }
    }

    /// The message's placeholders; `kind` is itself a catalog key (`file.kind.*`) to say first.
    public var arguments: [String: String] {
        switch self {
        case .missing(let path), .permissionDenied(let path): ["path": path]
        case .notAnInputDevice(let path, let kind): ["path": path, "kind": "file.kind.\(kind.rawValue)"]
        case .grabFailed(let path, _, let reason): ["path": path, "reason": reason]
        case .system(let path, let operation, _, let reason): ["path": path, "operation": operation, "reason": reason]
        }
    }
}

extension ButtonDeviceError: CatalogDescribable {
    /// `catalogKey` with `arguments`, the `kind` said first (`file.kind.*`).
    public var catalogMessage: CatalogMessage {
        CatalogMessage.button(key: catalogKey, arguments: arguments)
    }
}

extension CatalogMessage {
    /// A button message from its catalog key and arguments (`ButtonDeviceError`, `ButtonNotice`):
    /// a `kind` argument is itself a catalog key, said first; the others (paths, the system's
    /// reason) are detail.
    public static func button(key: String, arguments: [String: String]) -> CatalogMessage {
        CatalogMessage(key, Dictionary(uniqueKeysWithValues: arguments.map { name, value in
            (name, name == "kind" ? .message(CatalogMessage(value)) : .detail(value))
        }))
    }
}
