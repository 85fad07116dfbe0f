import Foundation

/// A big button or switch stored for this device (`steppie buttons add`), read by `steppie serve`.
/// It describes this device's hardware, so it is not part of backups (docs/buttons.md).
public struct DeviceButton: Hashable, Sendable, Identifiable {
    public var id: UUID
    /// The input device's node as the guardian gave it (absolute), e.g. `/dev/input/by-id/…-event-kbd`.
    public var path: String
    /// The canonical key map (`KEY_ENTER=done,*=next`, `ButtonMap.description`); nil: any key is done.
    public var keyMap: String?
    /// The child its presses are for; nil: `serve --child`, else the only child with an active set.
    public var childId: UUID?
    /// Exclusive use (`EVIOCGRAB`).
    public var grab: Bool
    /// The debounce window; nil: the default (300 ms).
    public var debounceMilliseconds: Int?
    public var createdAt: Date
    public var updatedAt: Date

    public init(id: UUID, path: String, keyMap: String? = nil, childId: UUID? = nil, grab: Bool = false,
                debounceMilliseconds: Int? = nil, createdAt: Date, updatedAt: Date? = nil) {
        self.id = id; self.path = path; self.keyMap = keyMap; self.childId = childId; self.grab = grab
        self.debounceMilliseconds = debounceMilliseconds; self.createdAt = createdAt; self.updatedAt = updatedAt ?? createdAt
    }
}

/// Which haptic stand-ins this device uses (`steppie haptics set`): the audio pulse mixed into
/// the sound, an evdev force-feedback device, a JSON-lines log. Not part of backups.
public struct DeviceHaptics: Hashable, Sendable {
    /// The low-frequency pulse mixed into the cue (for tactile transducers).
    public var audioPulse: Bool
    /// An evdev device with FF_RUMBLE under `/dev/input`; nil: none.
    public var rumblePath: String?
    /// A file that gets one JSON line per haptic pattern; nil: none.
    public var logPath: String?
    /// When the setting was last changed; nil: never (the defaults).
    public var updatedAt: Date?

    public init(audioPulse: Bool = true, rumblePath: String? = nil, logPath: String? = nil, updatedAt: Date? = nil) {
        self.audioPulse = audioPulse; self.rumblePath = rumblePath; self.logPath = logPath; self.updatedAt = updatedAt
    }

    /// What a device that never set anything uses: the audio pulse only.
    public static let defaults = DeviceHaptics()
}
