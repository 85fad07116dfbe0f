import Foundation
import Testing
import SteppieCore
@testable import SteppieStore

/// `Store.keepRecording`, the one path of the command line's import and the routine page's
/// microphone: checked by `RecordingCheck` (the decoder is a stand-in here; the real libsndfile
/// one is exercised by the CLI, guardian-page and backup tests), kept owner-only, the old take's
/// file removed; refused or failed, no file stays and no row changes.
@Suite struct RecordingKeepTests {
    /// A decoder that reports `audio` for any file, or fails.
    static func decoder(_ audio: DecodedAudio?) -> AudioDecoder {
        { _ in audio.map { .success($0) } ?? .failure(AudioDecodeFailure(reason: "File contains data in an unknown format.")) }
    }

    static func files(_ store: Store) -> [String] {
        guard let dir = store.recordingsDirectory else { return [] }
        return ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).sorted()
    }

    func routine(_ f: StoreFixture) throws -> Routine {
        let child = try f.childWithMorning()
        let set = try #require(try f.store.sets(childId: child.id).first)
        return try #require(try f.store.routines(setId: set.id).first)
    }

    @Test func aGoodTakeIsKeptOwnerOnlyAndReplacesTheOldOne() throws {
        let f = try StoreFixture()
        let routine = try routine(f)
        let good = Self.decoder(DecodedAudio(milliseconds: 1500, peak: 0.4))
        let first = try f.store.keepRecording(Data([1, 2, 3]), routineId: routine.id, locale: "ko", fileExtension: "wav", decode: good, at: f.now)
        #expect(first.replaced == nil)
        #expect(first.recording.durationMs == 1500 && first.recording.fileName.hasSuffix(".wav"))
        #expect(RecordingCheck.isFileName(first.recording.fileName))
        let path = try #require(f.store.recordingPath(first.recording))
        #expect(FileManager.default.contents(atPath: path) == Data([1, 2, 3]))
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
        #expect(mode == 0o600)
        let second = try f.store.keepRecording(Data([4, 5]), routineId: routine.id, locale: "ko", fileExtension: "WAV", decode: good, at: f.now)
        #expect(second.replaced == first.recording)
        #expect(Self.files(f.store) == [second.recording.fileName])
        #expect(try f.store.recordings() == [second.recording])
        #expect(try f.store.discardRecording(routineId: routine.id, locale: "ko") == second.recording)
        #expect(try Self.files(f.store).isEmpty && f.store.recordings().isEmpty)
        #expect(try f.store.discardRecording(routineId: routine.id, locale: "ko") == nil)
    }

    @Test(arguments: [
        (Data(), DecodedAudio(milliseconds: 900, peak: 0.5), RecordingRefusal.empty),
        (Data(count: RecordingCheck.maximumBytes + 1), DecodedAudio(milliseconds: 900, peak: 0.5), .tooLarge(bytes: RecordingCheck.maximumBytes + 1)),
        (Data([9]), nil, .notAudio(reason: "File contains data in an unknown format.")),
        (Data([9]), DecodedAudio(milliseconds: 30_001, peak: 0.5), .tooLong(milliseconds: 30_001)),
        (Data([9]), DecodedAudio(milliseconds: 0, peak: 0.5), .silent),
        (Data([9]), DecodedAudio(milliseconds: 900, peak: 0.0005), .silent),
    ] as [(Data, DecodedAudio?, RecordingRefusal)])
    func aRefusedTakeLeavesNothing(_ bytes: Data, _ audio: DecodedAudio?, _ refusal: RecordingRefusal) throws {
        let f = try StoreFixture()
        let routine = try routine(f)
        let kept = try f.store.keepRecording(Data([1]), routineId: routine.id, locale: "en", fileExtension: "wav",
                                             decode: Self.decoder(DecodedAudio(milliseconds: 800, peak: 0.3)), at: f.now)
        let before = try f.store.dump()
        #expect(throws: refusal) {
            _ = try f.store.keepRecording(bytes, routineId: routine.id, locale: "en", fileExtension: "wav", decode: Self.decoder(audio), at: f.now)
        }
        #expect(try f.store.dump() == before)
        #expect(Self.files(f.store) == [kept.recording.fileName])
    }

    @Test func anUnknownRoutineOrLanguageIsRefusedWithNoFileLeft() throws {
        let f = try StoreFixture()
        let routine = try routine(f)
        let good = Self.decoder(DecodedAudio(milliseconds: 800, peak: 0.3))
        #expect(throws: StoreError.self) {
            _ = try f.store.keepRecording(Data([1]), routineId: UUID(), locale: "en", fileExtension: "wav", decode: good, at: f.now)
        }
        #expect(throws: StoreError.self) {
            _ = try f.store.keepRecording(Data([1]), routineId: routine.id, locale: "not a tag!", fileExtension: "wav", decode: good, at: f.now)
        }
        #expect(Self.files(f.store).isEmpty)
        #expect(try f.store.recordings().isEmpty)
    }

    @Test func fileNamesAreOnlyAUUIDAndAnAudioExtension() {
        #expect(RecordingCheck.isFileName("0d6f5f6e-2f4b-4a59-9a0e-1c2d3e4f5a6b.wav"))
        #expect(RecordingCheck.isFileName("0d6f5f6e-2f4b-4a59-9a0e-1c2d3e4f5a6b.audio"))
        #expect(!RecordingCheck.isFileName("0D6F5F6E-2F4B-4A59-9A0E-1C2D3E4F5A6B.wav"))
        #expect(!RecordingCheck.isFileName("0d6f5f6e-2f4b-4a59-9a0e-1c2d3e4f5a6b.wav.txt"))
        #expect(!RecordingCheck.isFileName("../0d6f5f6e-2f4b-4a59-9a0e-1c2d3e4f5a6b.wav"))
        #expect(!RecordingCheck.isFileName("0d6f5f6e-2f4b-4a59-9a0e-1c2d3e4f5a6b.mp3"))
    }
}
