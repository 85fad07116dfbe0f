import Foundation
import Testing
import SteppieCore
import SteppieFeedback
import SteppieStore
@testable import SteppieCLI

/// `steppie buttons list|add|remove` and `haptics show|set`: this device's hardware, stored per
/// device. Golden text in English and Korean, refusals (exit 64 for values the command line can
/// judge, exit 1 for what the database says) with the database unchanged, guardian mode, and the
/// audio pulse measured in child mode's rendered sound.
@Suite struct DeviceHardwareCommandTests {
    /// Mina with her morning set, a FIFO and a regular file to store as buttons.
    static func family() throws -> (CLIHarness, fifo: String, file: String) {
        let h = CLIHarness()
        #expect(h.run(["init", "--child", "Mina"]).status == 0)
        let fifo = h.directory.appendingPathComponent("button-fifo").path
        let file = h.directory.appendingPathComponent("button-records").path
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(FileManager.default.createFile(atPath: file, contents: Data()))
        return (h, fifo, file)
    }

    static func dump(_ h: CLIHarness) throws -> String { try Store(path: h.db, timeZone: h.zone).dump() }

    @Test func helpIsGoldenText() {
        let h = CLIHarness()
        #expect(h.run(["buttons", "add", "--help"]).out == """
            Store a button for this device; a running service reads it within a second.

            Usage: steppie buttons add [--map MAP] [--child NAME|ID] [--grab] [--no-grab] [--debounce MS] PATH

            Arguments:
              PATH  The input device, e.g. /dev/input/by-id/usb-…-event-kbd (a FIFO or regular file for tests).

            Options:
              --map MAP        Which key does what: KEY=done|undo|next,… and *=ACTION for every other key (default: any key is done).
              --child NAME|ID  The child its presses are for, by name or id (default: serve --child, else the only child).
              --grab           Exclusive use: presses reach Steppie only, not the desktop.
              --no-grab        Share the device with other programs (the default).
              --debounce MS    Presses closer than this many milliseconds count once (default 300).

            Global options:
              --db PATH        Database file (default: $STEPPIE_DB, then $XDG_DATA_HOME/steppie/steppie.db).
              --locale LOCALE  Language of messages and titles. (ko|en|qps)
              --help           Show help for the command.

            """)
        #expect(h.run(["haptics", "set", "--help"]).out.contains("""
              --audio-pulse ON|OFF  Mix a soft low pulse into the sound, for tactile transducers (default on). (on|off)
            """))
    }

    @Test func buttonsAreAddedListedAndRemovedInBothLanguages() throws {
        let (h, fifo, file) = try Self.family()
        #expect(h.run(["buttons", "list"]).out
                == "No buttons are stored for this device. Add one with: steppie buttons add /dev/input/by-id/…-event-kbd\n")
        let first = h.run(["buttons", "add", fifo, "--map", "key_u=undo, KEY_ENTER=done,*=next", "--child", "mina", "--grab", "--debounce", "500"])
        #expect(first.status == 0, "\(first.err)")
        let store = try Store(path: h.db, timeZone: h.zone)
        let stored = try store.deviceButtons()
        let id = try #require(stored.first?.id.lowercased)
        #expect(first.out == "Stored the button \(fifo) (id \(id)) for Mina; a running service reads it within a second.\n")
        // The map is kept in its canonical form: names, sorted by code, * last.
        #expect(stored.first?.keyMap == "KEY_U=undo,KEY_ENTER=done,*=next")
        #expect(stored.first?.grab == true && stored.first?.debounceMilliseconds == 500)
        let second = h.run(["buttons", "add", file], locale: "ko")
        let id2 = try #require(try store.deviceButtons().last?.id.lowercased)
        #expect(second.out == "버튼을 저장했어요: \(file) (ID \(id2)), 대상: 서비스의 아이 (serve --child, 없으면 한 명뿐인 아이). 실행 중인 서비스가 1초 안에 읽기 시작해요.\n")
        #expect(h.run(["buttons", "list"]).out == """
            2 buttons are stored for this device:
              \(fifo)  (\(id))
                keys: KEY_U=undo,KEY_ENTER=done,*=next; for: Mina; exclusive use; debounce: 500 ms; present now
              \(file)  (\(id2))
                keys: any key is done; for: the service's child (serve --child, else the only child); shared; debounce: 300 ms (default); present now

            """)
        unlink(file)
        #expect(h.run(["buttons", "list"], locale: "ko").out == """
            이 기기에 저장된 버튼 2개:
              \(fifo)  (\(id))
                키: KEY_U=undo,KEY_ENTER=done,*=next; 대상: Mina; 단독 사용; 디바운스: 500ms; 지금 연결됨
              \(file)  (\(id2))
                키: 어떤 키든 완료; 대상: 서비스의 아이 (serve --child, 없으면 한 명뿐인 아이); 함께 사용; 디바운스: 300ms (기본값); 지금 없음

            """)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(h.run(["buttons", "list", "--json"]).out.utf8)) as? [[String: Any]])
        #expect(json.count == 2)
        #expect(json[0]["map"] as? String == "KEY_U=undo,KEY_ENTER=done,*=next" && json[0]["grab"] as? Bool == true)
        #expect((json[0]["child"] as? [String: Any])?["name"] as? String == "Mina" && json[0]["debounceMs"] as? Int == 500)
        #expect(json[1]["map"] is NSNull && json[1]["child"] is NSNull && json[1]["debounceMs"] is NSNull)
        #expect(json[1]["present"] as? Bool == false && json[0]["createdAt"] as? String == "2026-03-02T07:00:00.000+09:00")
        // Removed by id (any case) or by path.
        #expect(h.run(["buttons", "remove", id.uppercased()]).out
                == "Removed the button \(fifo) (id \(id)); a running service stops reading it within a second.\n")
        #expect(h.run(["buttons", "remove", file], locale: "ko").out
                == "버튼을 지웠어요: \(file) (ID \(id2)). 실행 중인 서비스가 1초 안에 읽기를 멈춰요.\n")
        #expect(try store.deviceButtons().isEmpty)
    }

    @Test func aRelativePathIsStoredAbsoluteAndPlain() throws {
        let (h, fifo, _) = try Self.family()
        #expect(DevicePaths.absolute("../x/./button", currentFolder: "/home/mina/steppie") == "/home/mina/x/button")
        #expect(DevicePaths.absolute("/dev/input//by-id/../event3/") == "/dev/input/event3")
        let relative = h.directory.path + "/./sub/../button-fifo"
        #expect(h.run(["buttons", "add", relative]).status == 0)
        #expect(try Store(path: h.db, timeZone: h.zone).deviceButtons().map(\.path) == [fifo])
        #expect(h.run(["buttons", "remove", relative]).status == 0)
    }

    @Test func badValuesAreRefusedWithTheDatabaseUnchanged() throws {
        let (h, fifo, file) = try Self.family()
        #expect(h.run(["buttons", "add", file]).status == 0)
        let id = try #require(try Store(path: h.db, timeZone: h.zone).deviceButtons().first?.id.lowercased)
        let missing = h.directory.appendingPathComponent("nothing-here").path
        let folder = h.directory.path
        let before = try Self.dump(h)
        // Values in error lines are cut after 60 code points, controls escaped.
        let P = Validator.printable
        let cases: [([String], Int32, String)] = [
            (["buttons", "add", missing], 64,
             "steppie: PATH: \"\(P(missing))\" cannot be used: nothing is at \(missing); a button is an input device under /dev/input (it may be unplugged now), or, for tests and replays, an existing FIFO or regular file.\n"),
            (["buttons", "add", folder], 64,
             "steppie: PATH: \"\(folder)\" cannot be used: \(folder) is a folder; a button is an input device under /dev/input, or, for tests and replays, a FIFO or regular file.\n"),
            (["buttons", "add", "/dev/null"], 64,
             "steppie: PATH: \"/dev/null\" cannot be used: /dev/null is a device; a button is an input device under /dev/input, or, for tests and replays, a FIFO or regular file.\n"),
            (["buttons", "add", fifo + "\u{1B}[2J"], 64,
             "steppie: PATH: \"\(P(fifo + "\u{1B}[2J"))\" cannot be used: write a path without control characters, at most 4096 bytes long.\n"),
            (["buttons", "add", fifo, "--map", "KEY_ENTRE=done"], 64,
             "steppie: --map: \"KEY_ENTRE=done\" cannot be used: \"KEY_ENTRE\" is not a key; use a name such as KEY_ENTER, KEY_SPACE or BTN_0, a code from 1 to 767, or * for every other key.\nSee: steppie --help\n"),
            (["buttons", "add", fifo, "--map", "KEY_ENTER=done,grab"], 64,
             "steppie: --map: \"KEY_ENTER=done,grab\" cannot be used: \"grab\" is not a key mapping (KEY=done|undo|next); give it with --grab or --debounce MS instead.\nSee: steppie --help\n"),
            (["buttons", "add", fifo, "--map", ""], 64,
             "steppie: --map: \"\" cannot be used: \"\" is not an option; use KEY=done|undo|next, grab or debounce=300ms, separated by commas.\nSee: steppie --help\n"),
            (["buttons", "add", fifo, "--debounce", "9000"], 64, "steppie: --debounce does not accept \"9000\"; allowed: a whole number 0…5000\nSee: steppie --help\n"),
            (["buttons", "add", fifo, "--debounce", "300ms"], 64, "steppie: --debounce does not accept \"300ms\"; allowed: a whole number 0…5000\nSee: steppie --help\n"),
            (["buttons", "add", fifo, "--grab", "--no-grab"], 64, "steppie: --grab and --no-grab cannot be used together\nSee: steppie --help\n"),
            (["buttons", "add"], 64, "steppie: missing argument PATH\nSee: steppie --help\n"),
            (["buttons", "add", fifo, "--child", "Joon"], 1, "steppie: no child named Joon; see: steppie children list\n"),
            (["buttons", "add", file], 1,
             "steppie: a button is already stored at \(P(file)) (id \(id)); remove it first to store it with other keys or options: steppie buttons remove \(id)\n"),
            (["buttons", "remove", fifo], 1, "steppie: no button is stored as \(P(fifo)); see: steppie buttons list\n"),
            (["haptics", "set"], 64, "steppie: missing argument --audio-pulse | --rumble | --log\nSee: steppie --help\n"),
            (["haptics", "set", "--audio-pulse", "maybe"], 64, "steppie: --audio-pulse does not accept \"maybe\"; allowed: on, off\nSee: steppie --help\n"),
            (["haptics", "set", "--rumble", fifo], 64,
             "steppie: --rumble: \"\(P(fifo))\" cannot be used: a force-feedback device is an event node under /dev/input, such as /dev/input/by-id/…-event-joystick.\n"),
            (["haptics", "set", "--log", folder], 64, "steppie: --log: \(P(folder)) is a folder, not a regular file; it was left untouched.\n"),
            (["haptics", "set", "--log", missing + "/haptics.jsonl"], 64,
             "steppie: --log: \"\(P(missing + "/haptics.jsonl"))\" cannot be used: the folder \(missing) does not exist.\n"),
        ]
        for (args, status, err) in cases {
            let r = h.run(args)
            #expect(r.status == status, "\(args): \(r.err)")
            #expect(r.err == err, "\(args)")
            #expect(try Self.dump(h) == before, "\(args)")
        }
        // The command line and the error line in Korean, for one of each kind.
        #expect(h.run(["buttons", "add", fifo, "--map", "KEY_ENTER=finish"], locale: "ko").err
                == "steppie: --map: \"KEY_ENTER=finish\" 값은 쓸 수 없어요. KEY_ENTER에 알 수 없는 동작이에요: \"finish\". done, undo, next 중에서 골라 주세요.\n도움말: steppie --help\n")
        // The particle follows the kind: 장치 파일이에요, 폴더예요.
        #expect(h.run(["buttons", "add", "/dev/null"], locale: "ko").err
                == "steppie: PATH: \"/dev/null\" 값은 쓸 수 없어요. 이 경로는 장치 파일이에요: /dev/null. 버튼은 /dev/input 아래의 입력 장치이거나, 시험과 재생용 FIFO나 일반 파일이어야 해요.\n")
        #expect(h.run(["buttons", "add", folder], locale: "ko").err.contains("이 경로는 폴더예요: "))
        #expect(h.run(["buttons", "remove", fifo], locale: "ko").err == "steppie: 저장된 버튼 중에 없어요: \(P(fifo)). 목록: steppie buttons list\n")
        #expect(try Self.dump(h) == before)
    }

    @Test func changingTheDevicesHardwareIsGuardianWork() throws {
        let (h, fifo, file) = try Self.family()
        #expect(h.run(["buttons", "add", file]).status == 0)
        #expect(h.run(["guardian", "set-pin", "--pin-stdin"], input: ["8361"]).status == 0)
        #expect(h.run(["guardian", "lock"]).status == 0)
        let before = try Self.dump(h)
        for args in [["buttons", "add", fifo], ["buttons", "remove", file], ["haptics", "set", "--audio-pulse", "off"]] {
            let r = h.run(args)
            #expect(r.status == 1 && r.err == "steppie: guardian mode is off; turn it on with: steppie guardian unlock\n", "\(args): \(r.err)")
        }
        #expect(try Self.dump(h) == before)
        // Looking needs no guardian mode.
        #expect(h.run(["buttons", "list"]).status == 0)
        #expect(h.run(["haptics", "show"]).status == 0)
        #expect(h.run(["guardian", "unlock", "--pin-stdin"], input: ["8361"]).status == 0)
        #expect(h.run(["buttons", "add", fifo]).status == 0)
        #expect(h.run(["haptics", "set", "--audio-pulse", "off"]).status == 0)
    }

    @Test func hapticsAreShownAndSetInBothLanguages() throws {
        let (h, _, _) = try Self.family()
        #expect(h.run(["haptics", "show"]).out == """
            Haptic stand-ins of this device:
              audio pulse: on
              force-feedback device: none
              event log: none

            """)
        let log = h.directory.appendingPathComponent("haptics.jsonl").path
        #expect(h.run(["haptics", "set", "--audio-pulse", "off", "--log", log]).out == """
            Saved; a running service uses it within a second, steppie child from its next start.
            Haptic stand-ins of this device:
              audio pulse: off
              force-feedback device: none
              event log: \(log)

            """)
        // A game pad not plugged in yet is accepted under /dev/input (the service opens it when it is there).
        let pad = "/dev/input/by-id/usb-Steppie_Test_Pad-\(UUID().uuidString.prefix(8))-event-joystick"
        #expect(h.run(["haptics", "set", "--rumble", pad], locale: "ko").out == """
            저장했어요. 실행 중인 서비스는 1초 안에, steppie child는 다음에 시작할 때 반영해요.
            이 기기의 햅틱 대체 출력:
              오디오 진동음: 꺼짐
              포스 피드백 장치: \(pad) (지금 없음)
              이벤트 기록: \(log)

            """)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(h.run(["haptics", "show", "--json"]).out.utf8)) as? [String: Any])
        #expect(json["audioPulse"] as? Bool == false && json["rumble"] as? String == pad && json["log"] as? String == log)
        #expect(json["updatedAt"] as? String == "2026-03-02T07:00:00.000+09:00")
        #expect(h.run(["haptics", "set", "--rumble", "none", "--log", "none", "--audio-pulse", "on"]).status == 0)
        #expect(try Store(path: h.db, timeZone: h.zone).deviceHaptics().logPath == nil)
        let reset = try #require(try JSONSerialization.jsonObject(with: Data(h.run(["haptics", "show", "--json"]).out.utf8)) as? [String: Any])
        #expect(reset["rumble"] is NSNull && reset["log"] is NSNull && reset["audioPulse"] as? Bool == true)
    }

    /// Child mode renders its session to a WAV file; with the audio pulse off the completion has
    /// no 40–60 Hz pulse and nothing else changes. Two databases with the same routine, so the
    /// two timelines line up sample for sample.
    ///
    /// Each session is the real binary in a process of its own: espeak-ng's waveform generator
    /// keeps state from one utterance to the next (its pitch flutter and wave phase), so one
    /// sentence said twice in one process differs by a few samples to a few hundred, and the
    /// in-process synthesizer's cache (24 utterances, shared by every test running beside this
    /// one) is no promise that both sessions get the same samples. A new process says the same
    /// sentences in the same order and so renders the same sound.
    @Test func theAudioPulseSettingIsHeardInChildMode() throws {
        func session(pulse: String?, log: Bool = false) throws -> (samples: [Float], log: String) {
            let h = BinaryHarness()
            let now = ["STEPPIE_NOW": "2026-03-02T07:00:00+09:00"]
            let made = h.sh("\"$S\" init --child Mina", env: now)
            #expect(made.status == 0, "\(made.err)")
            let logPath = h.directory + "/haptics.jsonl"
            var set = ["haptics", "set"]
            if let pulse { set += ["--audio-pulse", pulse] }
            if log { set += ["--log", logPath] }
            if set.count > 2 {
                let r = h.sh("\"$S\" " + set.joined(separator: " "), env: now)
                #expect(r.status == 0, "\(r.err)")
            }
            try "done\nquit\n".write(toFile: h.directory + "/keys.txt", atomically: true, encoding: .utf8)
            let r = h.sh("\"$S\" child --output wav --wav \"$D/child.wav\" --keys-from \"$D/keys.txt\"", env: now)
            #expect(r.status == 0, "\(r.err)")
            return (try SoundFile.read(path: h.directory + "/child.wav"), (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "")
        }
        let standard = try session(pulse: nil)
        let on = try session(pulse: "on", log: true)
        let off = try session(pulse: "off")
        #expect(standard.samples == on.samples, "the default is the pulse on")
        // The log output is used by child mode too: one line for the completion's pattern.
        let line = try #require(on.log.split(separator: "\n").first)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["event"] as? String == "completed" && object["pattern"] as? String == "light")
        try #require(on.samples.count == off.samples.count, "the pulse is inside the cue; the timeline keeps its length")
        let difference = zip(on.samples, off.samples).map { $0 - $1 }
        let changed = difference.indices.filter { abs(difference[$0]) > 0.002 }
        let first = try #require(changed.first), last = try #require(changed.last)
        // The normal intensity's light pattern: one 60 ms pulse at 0.3 × 0.4 of full scale.
        let span = Double(last - first + 1) / Double(SampleFormat.rate)
        #expect(span > 0.03 && span <= 0.061, "\(span) s")
        let pulse = Array(difference[first...last])
        let peak = pulse.map(abs).max() ?? 0
        #expect(peak > 0.08 && peak < 0.13, "peak \(peak)")
        var crossings = 0
        for i in 1..<pulse.count where (pulse[i - 1] < 0) != (pulse[i] < 0) { crossings += 1 }
        let hz = Double(crossings) / 2 / span
        #expect((30...70).contains(hz), "\(hz) Hz")
        // Everything else is the same sound: the chime and the speech.
        #expect(difference[..<first].allSatisfy { abs($0) <= 0.002 } && difference[(last + 1)...].allSatisfy { abs($0) <= 0.002 })
    }
}
