import Foundation

/// Rules of the settings that describe this device's hardware: stored buttons and haptic outputs.
extension Validator {
    /// The longest path a device setting may name, in bytes (Linux `PATH_MAX`).
    public static let maxDevicePathBytes = 4096
    /// The debounce window a stored button may set, in milliseconds.
    public static let buttonDebounceRange = 0...5000
    /// Buttons one device may store (each is a descriptor the service polls).
    public static let maxStoredButtons = 16
    /// The longest canonical key map, in bytes.
    public static let maxButtonMapBytes = 4000
    /// Where input devices (and force-feedback devices) have their nodes.
    public static let inputDeviceFolder = "/dev/input/"

    /// A path stored for this device: absolute, at most 4096 bytes, no control characters, and
    /// written plainly (no empty, `.` or `..` components, no trailing `/`), so that the service,
    /// which runs in another folder, finds the same file. Symbolic links are kept as given: the
    /// `/dev/input/by-id` names are links whose target changes from plug to plug.
    public static func devicePath(_ path: String, field: String) throws {
        let allowed = "an absolute path without control characters, empty, . or .. parts, at most \(maxDevicePathBytes) bytes"
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        guard path.hasPrefix("/"), path.utf8.count >= 2, path.utf8.count <= maxDevicePathBytes,
              !path.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }),
              !parts.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }) else {
            throw ContractViolation(field: field, value: printable(path), allowed: allowed, allowedKey: "contract.allowed.devicePath",
                                    arguments: ["max": String(maxDevicePathBytes)])
        }
    }

    /// A stored button's debounce window, 0…5000 ms.
    public static func buttonDebounce(_ milliseconds: Int) throws {
        guard buttonDebounceRange.contains(milliseconds) else {
            throw ContractViolation(field: "button.debounce", value: "\(milliseconds) ms",
                                    allowed: "\(buttonDebounceRange.lowerBound)…\(buttonDebounceRange.upperBound) ms")
        }
    }

    /// A stored key map's shape (what it means is checked by its parser, `ButtonMap(parsing:)`):
    /// printable ASCII `KEY=ACTION` items, at most 4000 bytes.
    public static func buttonMap(_ text: String) throws {
        guard text.contains("="), text.utf8.count <= maxButtonMapBytes, text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else {
            throw ContractViolation(field: "button.map", value: printable(text), allowed: "KEY=done|undo|next items separated by commas",
                                    allowedKey: "contract.allowed.buttonMap")
        }
    }

    /// A button stored for the device.
    public static func deviceButton(_ button: DeviceButton) throws {
        try devicePath(button.path, field: "button.path")
        if let map = button.keyMap { try buttonMap(map) }
        if let ms = button.debounceMilliseconds { try buttonDebounce(ms) }
    }

    /// The device's haptic outputs: plain absolute paths; the rumble device under `/dev/input`.
    public static func deviceHaptics(_ haptics: DeviceHaptics) throws {
        if let rumble = haptics.rumblePath {
            try devicePath(rumble, field: "haptics.rumble")
            guard rumble.hasPrefix(inputDeviceFolder) else {
                throw ContractViolation(field: "haptics.rumble", value: printable(rumble), allowed: "an event device under /dev/input",
                                    allowedKey: "contract.allowed.rumbleDevice")
            }
        }
        if let log = haptics.logPath { try devicePath(log, field: "haptics.log") }
    }
}
