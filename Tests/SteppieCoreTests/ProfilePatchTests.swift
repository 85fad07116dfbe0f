import Testing
import SteppieCore

/// One set of profile rules for every front end (issue 25, item 2).
@Suite struct ProfilePatchTests {
    @Test func onlyTheGivenFieldsChange() throws {
        var base = FeedbackProfile()
        base.voiceVariant = "f3"
        base.quietHoursStart = LocalTime("21:00")
        base.quietHoursEnd = LocalTime("07:00")
        var patch = ProfilePatch()
        #expect(patch.isEmpty)
        #expect(try patch.applied(to: base) == base)
        patch.pitch = 70
        patch.voiceVariant = .clear
        patch.notificationLeadTimes = []
        #expect(patch.changedFields == ["pitch", "voiceVariant", "notificationLeadTimes"])
        let after = try patch.applied(to: base)
        var expected = base
        expected.pitch = 70
        expected.voiceVariant = nil
        expected.notificationLeadTimes = []
        #expect(after == expected)
        patch = ProfilePatch()
        patch.quietHours = .clear
        patch.locale = .set("en")
        let cleared = try patch.applied(to: base)
        #expect(cleared.quietHoursStart == nil && cleared.quietHoursEnd == nil && cleared.locale == "en")
    }

    /// The first refused field in the contract's order is the one named, whichever way the
    /// fields were given; nothing of the patch is applied.
    @Test func theFirstRefusedFieldIsNamed() {
        var patch = ProfilePatch()
        patch.undoDurationSeconds = 7
        patch.ttsRate = 9
        patch.locale = .set("not a tag!")
        #expect(throws: ContractViolation.self) { try patch.applied(to: FeedbackProfile()) }
        do {
            _ = try patch.applied(to: FeedbackProfile())
        } catch let v as ContractViolation {
            #expect(v.field == "ttsRate")
        } catch { Issue.record("\(error)") }
        patch.ttsRate = nil
        #expect(field(of: patch) == "undoDurationSeconds")
        patch.undoDurationSeconds = nil
        #expect(field(of: patch) == "locale")
        var same = ProfilePatch()
        same.quietHours = .set(.init(start: LocalTime("07:00")!, end: LocalTime("07:00")!))
        #expect(field(of: same) == "quietHours")
        var leads = ProfilePatch()
        leads.notificationLeadTimes = [5, 5]
        #expect(field(of: leads) == "notificationLeadTimes")
    }

    /// `merged` shows what was asked for even when it is refused (a form shown again).
    @Test func mergedIsUnchecked() {
        var patch = ProfilePatch()
        patch.pitch = 200
        #expect(patch.merged(into: FeedbackProfile()).pitch == 200)
    }

    private func field(of patch: ProfilePatch) -> String? {
        do { _ = try patch.applied(to: FeedbackProfile()); return nil } catch let v as ContractViolation { return v.field } catch { return "\(error)" }
    }
}
