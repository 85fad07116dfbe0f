import Foundation
import SteppieCore
import SteppieFeedback
import SteppieGuardianWeb
import SteppieStore
import Testing

/// The routine page's recordings ("A familiar voice", docs/guardian-web.md): a take from the
/// browser (a 16-bit mono WAV) is checked by libsndfile through the shared `Store.keepRecording`
/// and kept; refused takes leave nothing; the kept one is served behind the session; remove.
@Suite struct GuardianRecordingTests {
    /// A WAV tone as the page's script sends it: 16-bit mono at `rate`.
    static func wav(seconds: Double, rate: Int = 48_000, amplitude: Double = 0.5) throws -> [UInt8] {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("steppie-take-\(UUID().uuidString).wav").path
        defer { unlink(path) }
        let samples = (0..<Int(seconds * Double(rate))).map { Int16(amplitude * 32767 * sin(2 * .pi * 330 * Double($0) / Double(rate))) }
        try SoundFile.writeWAV(samples, to: path, sampleRate: rate)
        return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    func firstRoutine(_ f: GuardianWebFixture) throws -> Routine {
        let set = try #require(try f.store.sets(childId: f.child.id).first)
        return try #require(try f.store.routines(setId: set.id).first)
    }

    func recordingFiles(_ f: GuardianWebFixture) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: f.directory + "/recordings")) ?? []).sorted()
    }

    func take(_ f: GuardianWebFixture, _ s: (cookie: String, csrf: String), routine: Routine, locale: String, bytes: [UInt8]?,
              csrf: String? = nil) -> WebResponse {
        f.post("/guardian/routine/\(routine.id.lowercased)/record", cookie: s.cookie, form: ["csrf": csrf ?? s.csrf, "locale": locale],
               files: bytes.map { ["audio": UploadedFile(filename: "take.wav", contentType: "audio/wav", bytes: $0)] } ?? [:], json: true)
    }

    @Test func aTakeIsKeptServedReplacedAndRemoved() throws {
        let f = try GuardianWebFixture()
        let s = try f.signIn()
        let routine = try firstRoutine(f)
        let page = f.get("/guardian/routine/\(routine.id.lowercased)", cookie: s.cookie)
        #expect(page.text.contains("data-recording-locale=\"ko\"") && page.text.contains("data-recording-locale=\"en\""))
        #expect(page.text.contains("data-rec=\"start\"") && !page.text.contains("data-kept=\"true\""))

        let bytes = try Self.wav(seconds: 1.5)
        let reply = take(f, s, routine: routine, locale: "ko", bytes: bytes)
        #expect(reply.status == 200 && reply.text.contains("\"ok\":true"), "\(reply.text)")
        let kept = try #require(try f.store.recording(routineId: routine.id, locale: "ko"))
        #expect(abs(kept.durationMs - 1500) <= 5)
        #expect(FileManager.default.contents(atPath: f.directory + "/recordings/" + kept.fileName) == Data(bytes))
        let served = f.get("/guardian/routine/\(routine.id.lowercased)/recording", cookie: s.cookie, query: ["locale": "ko"])
        #expect(served.status == 200 && served.contentType == "audio/wav" && served.body == bytes)
        // Signed out, nothing is served.
        #expect(f.get("/guardian/routine/\(routine.id.lowercased)/recording", query: ["locale": "ko"]).status == 303)
        let shown = f.get("/guardian/routine/\(routine.id.lowercased)", cookie: s.cookie)
        #expect(shown.text.contains("data-kept=\"true\"") && shown.text.contains("data-rec=\"play-kept\"") && shown.text.contains("Kept (1.5 s)"))

        // Redo and keep: the new take replaces the old one, whose file goes.
        #expect(take(f, s, routine: routine, locale: "ko", bytes: try Self.wav(seconds: 0.8)).status == 200)
        let second = try #require(try f.store.recording(routineId: routine.id, locale: "ko"))
        #expect(recordingFiles(f) == [second.fileName])

        let removed = f.post("/guardian/routine/\(routine.id.lowercased)/unrecord", cookie: s.cookie, form: ["csrf": s.csrf, "locale": "ko"])
        #expect(removed.status == 303)
        #expect(try f.store.recordings().isEmpty && recordingFiles(f).isEmpty)
    }

    @Test(arguments: ["tooLong", "notAudio", "empty", "missing", "silent", "locale"])
    func aRefusedTakeSaysWhyAndLeavesNothing(_ kind: String) throws {
        let f = try GuardianWebFixture()
        let s = try f.signIn()
        let routine = try firstRoutine(f)
        let before = try f.dump()
        let (bytes, locale, message): ([UInt8]?, String, String) = switch kind {
        case "tooLong": (try Self.wav(seconds: 31, rate: 16_000), "en", "The recording lasts 31.0 s; at most 30 seconds fit.")
        case "notAudio": (Array("RIFF but not really a WAV file".utf8), "en", "could not be read as sound")
        case "empty": ([], "en", "The recording is empty.")
        case "missing": (nil, "en", "The recording is empty.")
        case "silent": (try Self.wav(seconds: 1, amplitude: 0), "en", "holds no sound")
        default: (try Self.wav(seconds: 1), "fr", "choose one of the offered values")
        }
        let reply = take(f, s, routine: routine, locale: locale, bytes: bytes)
        #expect(reply.status == 400)
        #expect(reply.text.contains("\"ok\":false") && reply.text.contains(message), "\(reply.text)")
        #expect(try f.dump() == before)
        #expect(recordingFiles(f).isEmpty)
    }

    @Test func aTakeNeedsTheSessionAndItsToken() throws {
        let f = try GuardianWebFixture()
        let s = try f.signIn()
        let routine = try firstRoutine(f)
        let bytes = try Self.wav(seconds: 1)
        #expect(take(f, s, routine: routine, locale: "ko", bytes: bytes, csrf: String(repeating: "0", count: 64)).status == 403)
        #expect(take(f, ("", ""), routine: routine, locale: "ko", bytes: bytes).status == 401)
        #expect(try f.store.recordings().isEmpty && recordingFiles(f).isEmpty)
    }

    @Test func theRecordingSectionSpeaksKorean() throws {
        let f = try GuardianWebFixture()
        let s = try f.signIn()
        let routine = try firstRoutine(f)
        let page = f.get("/guardian/routine/\(routine.id.lowercased)", cookie: s.cookie, query: ["lang": "ko"])
        #expect(page.text.contains("이 일과를 부르는 내 목소리") && page.text.contains("녹음 없음"))
        #expect(page.text.contains("data-msg-denied=\"브라우저가 마이크를"))
    }
}
