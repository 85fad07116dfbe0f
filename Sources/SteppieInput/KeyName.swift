import CEvdev

/// Names of the common Linux key and button codes (`<linux/input-event-codes.h>`), for button maps.
public enum KeyName {
    /// The highest key code the kernel defines (`KEY_MAX`).
    public static let maxCode = UInt16(KEY_MAX)

    /// The code of `name` (`KEY_ENTER`, `btn_0`: any case), or of a decimal code (`28`) in 1…`maxCode`.
    public static func code(for name: String) -> UInt16? {
        if let digits = UInt16(name), digits >= 1, digits <= maxCode { return digits }
        return byName[name.uppercased()]
    }

    /// The table's name for `code` (`KEY_ENTER` for 28), or nil for a code the table does not name.
    public static func name(for code: UInt16) -> String? { byCode[code] }

    /// Every named key, in the table's order.
    public static var all: [(name: String, code: UInt16)] { table.map { ($0.0, UInt16($0.1)) } }

    // Aliases (BTN_A for BTN_SOUTH …) come after the name that `name(for:)` returns.
    private static let table: [(String, Int32)] = [
        ("KEY_ENTER", KEY_ENTER), ("KEY_SPACE", KEY_SPACE), ("KEY_KPENTER", KEY_KPENTER),
        ("KEY_ESC", KEY_ESC), ("KEY_TAB", KEY_TAB), ("KEY_BACKSPACE", KEY_BACKSPACE),
        ("KEY_UP", KEY_UP), ("KEY_DOWN", KEY_DOWN), ("KEY_LEFT", KEY_LEFT), ("KEY_RIGHT", KEY_RIGHT),
        ("KEY_PAGEUP", KEY_PAGEUP), ("KEY_PAGEDOWN", KEY_PAGEDOWN), ("KEY_HOME", KEY_HOME), ("KEY_END", KEY_END),
        ("KEY_1", KEY_1), ("KEY_2", KEY_2), ("KEY_3", KEY_3), ("KEY_4", KEY_4), ("KEY_5", KEY_5),
        ("KEY_6", KEY_6), ("KEY_7", KEY_7), ("KEY_8", KEY_8), ("KEY_9", KEY_9), ("KEY_0", KEY_0),
        ("KEY_A", KEY_A), ("KEY_B", KEY_B), ("KEY_C", KEY_C), ("KEY_D", KEY_D), ("KEY_E", KEY_E),
        ("KEY_F", KEY_F), ("KEY_G", KEY_G), ("KEY_H", KEY_H), ("KEY_I", KEY_I), ("KEY_J", KEY_J),
        ("KEY_K", KEY_K), ("KEY_L", KEY_L), ("KEY_M", KEY_M), ("KEY_N", KEY_N), ("KEY_O", KEY_O),
        ("KEY_P", KEY_P), ("KEY_Q", KEY_Q), ("KEY_R", KEY_R), ("KEY_S", KEY_S), ("KEY_T", KEY_T),
        ("KEY_U", KEY_U), ("KEY_V", KEY_V), ("KEY_W", KEY_W), ("KEY_X", KEY_X), ("KEY_Y", KEY_Y),
        ("KEY_Z", KEY_Z),
        ("KEY_F1", KEY_F1), ("KEY_F2", KEY_F2), ("KEY_F3", KEY_F3), ("KEY_F4", KEY_F4),
        ("KEY_F5", KEY_F5), ("KEY_F6", KEY_F6), ("KEY_F7", KEY_F7), ("KEY_F8", KEY_F8),
        ("KEY_F9", KEY_F9), ("KEY_F10", KEY_F10), ("KEY_F11", KEY_F11), ("KEY_F12", KEY_F12),
        ("KEY_KP0", KEY_KP0), ("KEY_KP1", KEY_KP1), ("KEY_KP2", KEY_KP2), ("KEY_KP3", KEY_KP3),
        ("KEY_KP4", KEY_KP4), ("KEY_KP5", KEY_KP5), ("KEY_KP6", KEY_KP6), ("KEY_KP7", KEY_KP7),
        ("KEY_KP8", KEY_KP8), ("KEY_KP9", KEY_KP9),
        ("KEY_LEFTCTRL", KEY_LEFTCTRL), ("KEY_RIGHTCTRL", KEY_RIGHTCTRL),
        ("KEY_LEFTSHIFT", KEY_LEFTSHIFT), ("KEY_RIGHTSHIFT", KEY_RIGHTSHIFT),
        ("KEY_LEFTALT", KEY_LEFTALT), ("KEY_RIGHTALT", KEY_RIGHTALT),
        ("KEY_VOLUMEUP", KEY_VOLUMEUP), ("KEY_VOLUMEDOWN", KEY_VOLUMEDOWN), ("KEY_MUTE", KEY_MUTE),
        ("KEY_PLAYPAUSE", KEY_PLAYPAUSE), ("KEY_NEXTSONG", KEY_NEXTSONG),
        ("KEY_PREVIOUSSONG", KEY_PREVIOUSSONG), ("KEY_STOPCD", KEY_STOPCD),
        ("KEY_OK", KEY_OK), ("KEY_SELECT", KEY_SELECT), ("KEY_BACK", KEY_BACK), ("KEY_NEXT", KEY_NEXT),
        ("BTN_0", BTN_0), ("BTN_1", BTN_1), ("BTN_2", BTN_2), ("BTN_3", BTN_3), ("BTN_4", BTN_4),
        ("BTN_5", BTN_5), ("BTN_6", BTN_6), ("BTN_7", BTN_7), ("BTN_8", BTN_8), ("BTN_9", BTN_9),
        ("BTN_LEFT", BTN_LEFT), ("BTN_RIGHT", BTN_RIGHT), ("BTN_MIDDLE", BTN_MIDDLE),
        ("BTN_TRIGGER", BTN_TRIGGER), ("BTN_THUMB", BTN_THUMB), ("BTN_THUMB2", BTN_THUMB2),
        ("BTN_TOP", BTN_TOP), ("BTN_TOP2", BTN_TOP2), ("BTN_PINKIE", BTN_PINKIE), ("BTN_BASE", BTN_BASE),
        ("BTN_SOUTH", BTN_SOUTH), ("BTN_EAST", BTN_EAST), ("BTN_NORTH", BTN_NORTH), ("BTN_WEST", BTN_WEST),
        ("BTN_TL", BTN_TL), ("BTN_TR", BTN_TR), ("BTN_SELECT", BTN_SELECT), ("BTN_START", BTN_START),
        ("BTN_MODE", BTN_MODE), ("BTN_THUMBL", BTN_THUMBL), ("BTN_THUMBR", BTN_THUMBR),
        ("BTN_A", BTN_A), ("BTN_B", BTN_B), ("BTN_X", BTN_X), ("BTN_Y", BTN_Y),
    ]

    private static let byName: [String: UInt16] = Dictionary(
        table.map { ($0.0, UInt16($0.1)) }, uniquingKeysWith: { first, _ in first })

    private static let byCode: [UInt16: String] = Dictionary(
        table.map { (UInt16($0.1), $0.0) }, uniquingKeysWith: { first, _ in first })
}
