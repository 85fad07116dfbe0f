import Testing
@testable import SteppieLocalization

@Suite struct KoreanParticleTests {
    @Test func basic() {
        #expect(KoreanParticles.attach(.eulReul, to: "양치하기") == "양치하기를")
    }
}
