import SteppieCore

/// The builtin icons of the iOS and Android apps (28 names, the same on both: their
/// `RoutineIconName` and `BuiltinIconNames`) and how they meet this project's 69: a phone export
/// writes the nearest phone icon (iOS refuses a backup naming any other), and a phone backup's
/// icons come back as the Linux icon that stands for them.
package enum PhoneIcons {
    /// Every builtin icon name the phone apps accept.
    package static let names: Set<String> = [
        "wake-up", "wash-face", "brush-teeth", "get-dressed", "breakfast", "pack-bag",
        "school", "book", "pencil", "lunch", "playground", "bus",
        "bath", "pajamas", "story-book", "toilet", "sleep", "star",
        "home", "meal", "snack", "medicine", "walk", "therapy", "music", "art",
        "clean-up", "timer",
    ]

    /// The phone icon for a Linux builtin icon: the one that shows the same activity, else the
    /// closest kind of thing (`shirt` → `get-dressed`, `dog` → `home`); `star` for anything else.
    package static func phoneName(for linuxName: String) -> String {
        if names.contains(linuxName) { return linuxName }
        return toPhone[linuxName] ?? "star"
    }

    /// The Linux icon for a phone icon name; nil when there is none (the caller falls back to `star`).
    package static func linuxName(for phoneName: String) -> String? {
        if BuiltinIcons.contains(phoneName) { return phoneName }
        return toLinux[phoneName]
    }

    /// Phone icons that have no Linux icon of the same name, and the Linux icon shown for each.
    private static let toLinux: [String: String] = [
        "wake-up": "alarm", "wash-face": "face-wash", "brush-teeth": "toothbrush", "get-dressed": "shirt",
        "pack-bag": "backpack", "playground": "park", "bath": "bathtub", "story-book": "story", "sleep": "bed",
        "meal": "dinner", "therapy": "doctor", "art": "drawing", "timer": "clock",
    ]

    /// Linux icons whose name the phone apps do not have, and the nearest phone icon.
    private static let toPhone: [String: String] = [
        "sun": "wake-up", "alarm": "wake-up", "moon": "sleep", "bed": "sleep", "pillow": "sleep",
        "face-wash": "wash-face", "hand-wash": "wash-face", "soap": "wash-face", "comb": "wash-face",
        "toothbrush": "brush-teeth", "toothpaste": "brush-teeth",
        "towel": "bath", "shower": "bath", "bathtub": "bath",
        "shirt": "get-dressed", "pants": "get-dressed", "socks": "get-dressed", "shoes": "get-dressed",
        "jacket": "get-dressed", "hat": "get-dressed",
        "backpack": "pack-bag",
        "dinner": "meal", "spoon": "meal", "water": "meal", "milk": "snack", "apple": "snack",
        "car": "bus", "homework": "pencil", "computer": "school", "drawing": "art",
        "blocks": "playground", "ball": "playground", "play": "playground", "puzzle": "playground",
        "park": "playground", "bicycle": "playground", "swim": "playground", "friend": "playground",
        "tv": "home", "dog": "home", "cat": "home", "plant": "home", "family": "home", "hug": "home", "phone": "home",
        "trash": "clean-up", "laundry": "clean-up",
        "doctor": "therapy", "calendar": "timer", "clock": "timer",
        "heart": "star", "smile": "star", "check": "star", "story": "story-book",
    ]
}
