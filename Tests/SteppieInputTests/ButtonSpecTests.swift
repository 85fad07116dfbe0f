import CEvdev
import Testing
@testable import SteppieInput

@Suite struct ButtonSpecTests {
    static let enter = UInt16(KEY_ENTER)

    @Test(arguments: [
        ("/dev/input/event3", ButtonSpec(path: "/dev/input/event3")),
        ("/dev/input/event3:", ButtonSpec(path: "/dev/input/event3")),
        ("/dev/input/event3:grab", ButtonSpec(path: "/dev/input/event3", grab: true)),
        ("/dev/input/event3:debounce=500ms", ButtonSpec(path: "/dev/input/event3", debounce: .milliseconds(500))),
        ("/dev/input/event3:debounce=1s,grab", ButtonSpec(path: "/dev/input/event3", grab: true, debounce: .seconds(1))),
        ("/dev/input/event3:debounce=off", ButtonSpec(path: "/dev/input/event3", debounce: .zero)),
        ("/dev/input/event3:debounce=0", ButtonSpec(path: "/dev/input/event3", debounce: .zero)),
        ("/dev/input/event3:KEY_ENTER=done,KEY_U=undo,BTN_0=next",
         ButtonSpec(path: "/dev/input/event3", map: ButtonMap(actions: [
            UInt16(KEY_ENTER): .done, UInt16(KEY_U): .undo, UInt16(BTN_0): .next]))),
        ("/dev/input/event3: key_space = Done , 49=next ,*=undo",
         ButtonSpec(path: "/dev/input/event3", map: ButtonMap(actions: [
            UInt16(KEY_SPACE): .done, 49: .next], otherKeys: .undo))),
        ("/dev/input/event3:*=done", ButtonSpec(path: "/dev/input/event3")),
        ("/dev/input/event3:BTN_A=undo", ButtonSpec(path: "/dev/input/event3", map: ButtonMap(actions: [UInt16(BTN_SOUTH): .undo]))),
        // by-path names hold colons; the last one is followed by "-event-kbd", so it stays in the path.
        ("/dev/input/by-path/pci-0000:00:14.0-usb-0:1:1.0-event-kbd",
         ButtonSpec(path: "/dev/input/by-path/pci-0000:00:14.0-usb-0:1:1.0-event-kbd")),
        ("/dev/input/by-path/pci-0000:00:14.0-usb-0:1:1.0-event-kbd:grab,KEY_ENTER=done",
         ButtonSpec(path: "/dev/input/by-path/pci-0000:00:14.0-usb-0:1:1.0-event-kbd",
                    map: ButtonMap(actions: [enter: .done]), grab: true)),
        ("/dev/input/by-id/usb-Ablenet_Switch-event-kbd", ButtonSpec(path: "/dev/input/by-id/usb-Ablenet_Switch-event-kbd")),
    ])
    func parses(text: String, expected: ButtonSpec) throws {
        #expect(try ButtonSpec(parsing: text) == expected)
        // The canonical text stored per device parses back to the same spec.
        #expect(try ButtonSpec(parsing: expected.description) == expected)
    }

    @Test(arguments: [
        ("", ButtonSpecError.emptyPath),
        (":grab", .emptyPath),
        ("/dev/input/event3:grabb", .unknownItem("grabb")),
        ("/dev/input/event3:grab,,KEY_A=done", .unknownItem("")),
        ("/dev/input/event3:KEY_NOPE=done", .unknownKey("KEY_NOPE")),
        ("/dev/input/event3:KEY_ENTRE=done", .unknownKey("KEY_ENTRE")),
        ("/dev/input/event3:0=done", .unknownKey("0")),
        ("/dev/input/event3:768=done", .unknownKey("768")),
        ("/dev/input/event3:=done", .unknownItem("=done")),
        ("/dev/input/event3:KEY_ENTER=finish", .unknownAction(key: "KEY_ENTER", action: "finish")),
        ("/dev/input/event3:*=", .unknownAction(key: "*", action: "")),
        ("/dev/input/event3:KEY_ENTER=done,28=undo", .duplicateKey("28")),
        ("/dev/input/event3:*=done,*=next", .duplicateKey("*")),
        ("/dev/input/event3:grab,grab", .duplicateOption("grab")),
        ("/dev/input/event3:debounce=1s,debounce=2s", .duplicateOption("debounce")),
        ("/dev/input/event3:debounce=fast", .badDebounce("fast")),
        ("/dev/input/event3:debounce=300", .badDebounce("300")),
        ("/dev/input/event3:debounce=6s", .badDebounce("6s")),
        ("/dev/input/event3:debounce=", .badDebounce("")),
    ])
    func refuses(text: String, expected: ButtonSpecError) {
        #expect(throws: expected) { try ButtonSpec(parsing: text) }
    }

    @Test func everyErrorAndNoticeHasACatalogKeyInBothLanguages() throws {
        let keys = try CatalogFiles.keys()
        let errors: [ButtonSpecError] = [.emptyPath, .unknownItem("x"), .unknownKey("x"),
                                         .unknownAction(key: "x", action: "y"), .duplicateKey("x"),
                                         .duplicateOption("x"), .badDebounce("x"), .optionInMap("x")]
        let deviceErrors: [ButtonDeviceError] = [.missing(path: "p"), .notAnInputDevice(path: "p", kind: .directory),
                                                 .permissionDenied(path: "p"), .grabFailed(path: "p", errno: 16, reason: "r"),
                                                 .system(path: "p", operation: "o", errno: 5, reason: "r")]
        let notices: [ButtonNotice] = [.lost(path: "p", reason: .unplugged), .lost(path: "p", reason: .removed),
                                       .lost(path: "p", reason: .readFailed(errno: 5, reason: "r")), .back(path: "p")]
        let pathErrors: [ButtonPathError] = [.outsideInputFolder(path: "p"), .unsupportedKind(path: "p", kind: .socket)]
        let used = errors.map(\.catalogKey) + deviceErrors.map(\.catalogKey) + notices.map(\.catalogKey) + pathErrors.map(\.catalogKey)
        for locale in ["ko", "en"] {
            for key in used { #expect(keys[locale]?.contains(key) == true, "\(locale) lacks \(key)") }
            #expect(Set(used).isSuperset(of: keys[locale] ?? []), "\(locale)/buttons.json has unused keys")
        }
    }

    /// A map alone (`buttons add --map`): the same items as a spec's, without `grab` and
    /// `debounce=`, and a canonical text that parses back to the same map.
    @Test(arguments: [
        ("KEY_ENTER=done", ButtonMap(actions: [UInt16(KEY_ENTER): .done]), "KEY_ENTER=done"),
        ("key_u=undo, KEY_ENTER=done,*=next", ButtonMap(actions: [UInt16(KEY_U): .undo, UInt16(KEY_ENTER): .done], otherKeys: .next),
         "KEY_U=undo,KEY_ENTER=done,*=next"),
        ("28=undo,BTN_A=next", ButtonMap(actions: [28: .undo, UInt16(BTN_SOUTH): .next]), "KEY_ENTER=undo,BTN_SOUTH=next"),
        ("*=done", ButtonMap.anyKeyIsDone, "*=done"),
        ("700=done", ButtonMap(actions: [700: .done]), "700=done"),
    ])
    func mapsParseAloneAndHaveACanonicalText(text: String, expected: ButtonMap, canonical: String) throws {
        let map = try ButtonMap(parsing: text)
        #expect(map == expected)
        #expect(map.description == canonical)
        #expect(try ButtonMap(parsing: map.description) == map)
        // The same map inside a spec.
        #expect(try ButtonSpec(parsing: "/dev/input/event3:" + text).map == expected)
    }

    @Test(arguments: [
        ("", ButtonSpecError.unknownItem("")),
        ("grab", .optionInMap("grab")),
        ("KEY_ENTER=done,debounce=300ms", .optionInMap("debounce=300ms")),
        ("KEY_ENTRE=done", .unknownKey("KEY_ENTRE")),
        ("KEY_ENTER=done,KEY_ENTER=undo", .duplicateKey("KEY_ENTER")),
        ("KEY_ENTER=finish", .unknownAction(key: "KEY_ENTER", action: "finish")),
    ])
    func mapsRefuse(text: String, expected: ButtonSpecError) {
        #expect(throws: expected) { try ButtonMap(parsing: text) }
    }

    @Test func keyNamesAndCodes() {
        #expect(KeyName.code(for: "KEY_ENTER") == 28)
        #expect(KeyName.code(for: "key_enter") == 28)
        #expect(KeyName.code(for: "BTN_0") == 0x100)
        #expect(KeyName.code(for: "767") == 767)
        #expect(KeyName.code(for: "768") == nil)
        #expect(KeyName.name(for: 28) == "KEY_ENTER")
        #expect(KeyName.name(for: UInt16(BTN_SOUTH)) == "BTN_SOUTH")
        #expect(Set(KeyName.all.map(\.name)).count == KeyName.all.count)
    }
}
