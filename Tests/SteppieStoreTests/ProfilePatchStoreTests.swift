import Foundation
import Testing
import SteppieCore
@testable import SteppieStore

/// A profile patch is applied to the row as it is inside the write (issue 25, item 2).
@Suite struct ProfilePatchStoreTests {
    /// Two connections (the command line and the service's pages, say) each read the profile,
    /// then change different fields: both changes survive. Writing whole profiles, the second
    /// write put back the first one's field as it had read it.
    @Test func changesOfDifferentFieldsFromTwoConnectionsBothSurvive() throws {
        let f = try StoreFixture()
        let child = try f.childWithMorning()
        let other = try Store(path: f.path, timeZone: f.zone)
        var pitch = ProfilePatch()
        pitch.pitch = 70
        var quiet = ProfilePatch()
        quiet.intensity = .quiet
        try f.store.updateProfile(childId: child.id, pitch, at: f.now)
        let saved = try other.updateProfile(childId: child.id, quiet, at: f.now)
        #expect(saved.pitch == 70 && saved.intensity == .quiet)
        let read = try f.store.child(id: child.id).profile
        #expect(read.pitch == 70 && read.intensity == .quiet)
    }

    @Test func aRefusedPatchChangesNothing() throws {
        let f = try StoreFixture()
        let child = try f.childWithMorning()
        let before = try f.store.dump()
        var patch = ProfilePatch()
        patch.intensity = .strong
        patch.pitch = 100
        #expect(throws: StoreError.self) { try f.store.updateProfile(childId: child.id, patch, at: f.now) }
        #expect(try f.store.dump() == before)
        let nobody = UUID()
        do {
            try f.store.updateProfile(childId: nobody, ProfilePatch(), at: f.now)
            Issue.record("a patch of no child was saved")
        } catch StoreError.childNotFound(let id) {
            #expect(id == nobody.lowercased)
        }
    }
}
