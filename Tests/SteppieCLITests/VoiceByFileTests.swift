import Foundation
import Testing
import SteppieFeedback

/// `steppie say --out` chooses the voice by its file (issue 16) and speaks exactly as the
/// `espeak-ng` command, which finds the same voice by its name.
@Suite struct VoiceByFileTests {
    @Test(arguments: [("en", "Brush your teeth, then put on your shoes."), ("ko", "양치하고 신발을 신어요.")])
    func samplesEqualEspeakByName(locale: String, text: String) throws {
        let h = BinaryHarness()
        let ours = h.directory + "/ours.wav", theirs = h.directory + "/theirs.wav"
        let r = h.sh("$S say --locale \(locale) --out \(ours) \"\(text)\" && espeak-ng -v \(locale) -w \(theirs) \"\(text)\"",
                     env: ["STEPPIE_SOCKET": h.directory + "/none.sock"])
        #expect(r.status == 0, "\(r.err)")
        let a = try SoundFile.read(path: ours), b = try SoundFile.read(path: theirs)
        #expect(a.count > 20_000)
        // The command pads its file with silence after the last sample espeak-ng delivers.
        #expect(a.count <= b.count)
        let same = a.count <= b.count && a.elementsEqual(b.prefix(a.count))
        #expect(same, "the samples differ (\(a.count) and \(b.count))")
        #expect(b.dropFirst(a.count).allSatisfy { $0 == 0 }, "the command's tail is not silence")
    }
}
