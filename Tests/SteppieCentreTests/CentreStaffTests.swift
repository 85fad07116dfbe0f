import Dispatch
import Foundation
import SteppieCentre
import SteppieCore
import SteppiePostgres
import SteppieSecurity
import SteppieSync
import Synchronization
import Testing

extension CentreTests {
    /// The centre's staff, roles and groups (docs/centre.md, "Staff, roles and groups").
    @Suite struct CentreStaffTests {
        /// argon2id at libsodium's smallest cost: the same code path, quick enough for many hashes.
        static let cheap = PasswordHasher.Limits(operations: 1, memoryBytes: 8192)
        static let password = "correct horse battery"

        /// A hub with an admin, a viewer and an editor, a device (`home`) that brought three children.
        struct Centre {
            let f: CentreFixture
            let store: CentreStore
            let admin: Staff, editor: Staff, viewer: Staff
            var home = TestDevice()
            let mina = UUID().uuidString.lowercased(), joon = UUID().uuidString.lowercased(), sora = UUID().uuidString.lowercased()

            init() throws {
                f = try CentreFixture()
                store = CentreStore(pool: f.pool, passwordLimits: CentreStaffTests.cheap)
                admin = try store.addFirstAdmin(name: "Ada", password: CentreStaffTests.password)
                editor = try store.addStaff(name: "Eve", password: CentreStaffTests.password, role: .editor, actor: admin)
                viewer = try store.addStaff(name: "Vic", password: CentreStaffTests.password, role: .viewer, actor: admin)
                try f.join(&home, children: [], name: "home")
                let now = f.now
                _ = try f.push(home, [home.change(.child, mina, child: mina, "name", .string("Mina"), now: now),
                                      home.change(.child, joon, child: joon, "name", .string("Joon"), now: now),
                                      home.change(.child, sora, child: sora, "name", .string("Sora"), now: now)])
            }

            /// Every change a member might try, each with the action it needs.
            func attempts(as actor: Staff) -> [(StaffAction, () throws -> Void)] {
                [(.manageGroups, { _ = try store.addGroup(name: "Class 9", actor: actor) }),
                 (.manageGroups, { try store.addGroupChild(group: "Class 1", child: sora, actor: actor) }),
                 (.manageGroups, { try store.removeGroupChild(group: "Class 1", child: mina, actor: actor) }),
                 (.manageGroups, { try store.removeGroup(name: "Class 1", actor: actor) }),
                 (.grantChildren, { try store.giveGroup(device: home.id, group: nil, actor: actor) }),
                 (.grantChildren, { try store.grant(device: home.id, children: [mina], actor: actor) }),
                 (.makeJoiningCodes, { try store.invite(codeHash: String(repeating: "a", count: 64), children: [], expiresAt: f.now + 1, actor: actor) }),
                 (.removeDevices, { try store.remove(device: home.id, actor: actor) }),
                 (.manageStaff, { _ = try store.addStaff(name: "Zed", password: CentreStaffTests.password, role: .admin, actor: actor) }),
                 (.manageStaff, { try store.removeStaff(name: "Eve", actor: actor) })]
            }
        }

        @Test func aViewerChangesNothingAnEditorMakesNoCodesNorRemovesDevicesAnAdminMayDoAll() throws {
            let centre = try Centre()
            let store = centre.store, f = centre.f
            defer { f.database.drop() }
            let group = try store.addGroup(name: "Class 1", actor: centre.editor)
            try store.addGroupChild(group: "Class 1", child: centre.mina, actor: centre.editor)
            try store.giveGroup(device: centre.home.id, group: group.name, actor: centre.editor)
            let before = try f.database.dump()
            // A viewer: every change refused, nothing changed.
            for (action, attempt) in centre.attempts(as: centre.viewer) {
                #expect(throws: CentreStaffError.notPermitted(role: .viewer, action: action)) { try attempt() }
            }
            #expect(try f.database.dump() == before)
            // An editor: no joining codes, no device removal, no staff.
            for (action, attempt) in centre.attempts(as: centre.editor) where [.makeJoiningCodes, .removeDevices, .manageStaff].contains(action) {
                #expect(throws: CentreStaffError.notPermitted(role: .editor, action: action)) { try attempt() }
            }
            #expect(try f.database.dump() == before)
            // …but groups and what a device gets.
            for (action, attempt) in centre.attempts(as: centre.editor) where [.manageGroups, .grantChildren].contains(action) {
                try attempt()
            }
            #expect(try store.groups().map(\.name) == ["Class 9"])
            // An admin: everything (the groups' changes were the editor's, above).
            for (action, attempt) in centre.attempts(as: centre.admin) where action != .manageGroups {
                try attempt()
            }
            #expect(try store.staff().map(\.name) == ["Ada", "Vic", "Zed"])
            #expect(try store.devices().isEmpty)
            let invites = try PostgresConnection(conninfo: f.database.conninfo).queryFirst("SELECT COUNT(*) FROM invites", [], { try $0.int(0) })
            #expect(invites == 2)   // the fixture's join, and the admin's
        }

        @Test func aRemovedMembersPasswordStopsWorkingAtOnce() throws {
            let centre = try Centre()
            let store = centre.store, f = centre.f
            defer { f.database.drop() }
            #expect(try store.signIn(name: "eve", password: Self.password, now: f.now) == centre.editor)
            try store.removeStaff(name: "EVE", actor: centre.admin)
            #expect(throws: CentreStaffError.signInRefused) { try store.signIn(name: "Eve", password: Self.password, now: f.now) }
            // Signed in before the removal: the next act is refused.
            #expect(throws: CentreStaffError.notStaff) { try store.addGroup(name: "Class 2", actor: centre.editor) }
            #expect(try store.groups().isEmpty)
            // The name is free again; the first-admin rule and the last admin hold.
            _ = try store.addStaff(name: "eve", password: Self.password, role: .viewer, actor: centre.admin)
            #expect(throws: CentreStaffError.staffNameTaken("EVE")) {
                try store.addStaff(name: "EVE", password: Self.password, role: .viewer, actor: centre.admin)
            }
            #expect(throws: CentreStaffError.adminExists) { try store.addFirstAdmin(name: "Mallory", password: Self.password) }
            #expect(throws: CentreStaffError.lastAdmin) { try store.removeStaff(name: "Ada", actor: centre.admin) }
            #expect(throws: CentreStaffError.passwordLength(minimum: 10, maximum: 1024)) {
                try store.addStaff(name: "Short", password: "123456789", role: .viewer, actor: centre.admin)
            }
        }

        @Test func theStoredHashIsArgon2idNeverThePassword() throws {
            let f = try CentreFixture()
            defer { f.database.drop() }
            // The store's default cost (libsodium's interactive limits), as `steppie hub staff add` uses it.
            let admin = try f.store.addFirstAdmin(name: "Ada", password: Self.password)
            let hashes = try PostgresConnection(conninfo: f.database.conninfo).query("SELECT password_hash FROM staff", [], { try $0.text(0) })
            #expect(hashes.count == 1 && hashes[0].hasPrefix("$argon2id$"))
            #expect(try PasswordHasher().verify(Self.password, against: hashes[0]))
            #expect(!(try f.database.dump()).contains(Self.password))
            #expect(try f.store.signIn(name: "Ada", password: Self.password, now: f.now) == admin)
            // The table refuses anything but an argon2id hash.
            #expect(throws: (any Error).self) {
                try PostgresConnection(conninfo: f.database.conninfo)
                    .run("INSERT INTO staff (name, password_hash, role) VALUES ('x', $1, 'viewer')", [.text(Self.password)])
            }
        }

        @Test func wrongPasswordsBackOffAsGuardianPinsDo() throws {
            let centre = try Centre()
            let store = centre.store, f = centre.f
            defer { f.database.drop() }
            for _ in 1...5 {
                #expect(throws: CentreStaffError.signInRefused) { try store.signIn(name: "Eve", password: "wrong password", now: f.now) }
            }
            // Five wrong: 30 s, checked before the password (the right one is refused too).
            #expect(throws: CentreStaffError.lockedOut(seconds: 30)) { try store.signIn(name: "Eve", password: Self.password, now: f.now) }
            // Another name is not locked.
            #expect(try store.signIn(name: "Vic", password: Self.password, now: f.now) == centre.viewer)
            f.clock.advance(by: 31)
            #expect(try store.signIn(name: "Eve", password: Self.password, now: f.now) == centre.editor)
            // A success resets the count: four free failures again.
            for _ in 1...4 {
                #expect(throws: CentreStaffError.signInRefused) { try store.signIn(name: "Eve", password: "wrong password", now: f.now) }
            }
            #expect(try store.signIn(name: "Eve", password: Self.password, now: f.now) == centre.editor)
        }

        @Test func aDeviceGivenAGroupGetsExactlyTheGroupsChildren() throws {
            var centre = try Centre()
            let store = centre.store, f = centre.f
            defer { f.database.drop() }
            var school = TestDevice()
            try f.join(&school, children: [], name: "school")
            _ = try store.addGroup(name: "Class 1", actor: centre.editor)
            try store.addGroupChild(group: "Class 1", child: centre.mina, actor: centre.editor)
            try store.addGroupChild(group: "Class 1", child: centre.joon, actor: centre.editor)
            try store.giveGroup(device: school.id, group: "class 1", actor: centre.editor)
            let copy = try f.hub.pull(PullRequest(device: school.id, sentAt: f.now, cursor: school.cursor), credential: school.credential)
            #expect(copy.freshCopy && copy.children == [centre.mina, centre.joon].sorted())
            #expect(Set(copy.entries.map(\.child)) == [centre.mina, centre.joon])
            school.cursor = copy.cursor
            // A push for a child outside the group is refused; inside, taken and pulled by home.
            #expect(throws: SyncRefusal.childNotGiven(child: centre.sora)) {
                try f.push(school, [school.press(child: centre.sora, routine: "r", now: f.now)])
            }
            school.seq = 0
            let press = school.press(child: centre.mina, routine: "r", now: f.now)
            #expect(try f.push(school, [press]).acknowledged == 1)
            _ = try f.pullAll(&centre.home)
            // Joon taken out of the group: the next pull is a copy of Mina alone.
            try store.removeGroupChild(group: "Class 1", child: centre.joon, actor: centre.editor)
            let again = try f.hub.pull(PullRequest(device: school.id, sentAt: f.now, cursor: school.cursor), credential: school.credential)
            #expect(again.freshCopy && again.children == [centre.mina])
            #expect(Set(again.entries.map(\.child)) == [centre.mina])
            // The group's children never became the device's own: without a group it has none.
            try store.giveGroup(device: school.id, group: nil, actor: centre.editor)
            let none = try f.hub.pull(PullRequest(device: school.id, sentAt: f.now, cursor: again.cursor), credential: school.credential)
            #expect(none.children.isEmpty && none.entries.isEmpty)
            #expect(try store.devices().first { $0.id == school.id }?.children == [])
        }

        /// The overview reads one group and the devices that serve it, not every group and
        /// device of the centre: given the group, holding one of its children as their own, or
        /// through another group the child is in (a child in a class and a therapy group is
        /// served by both groups' devices). A device serving neither, and another class's, are
        /// left out.
        @Test func theOverviewReadsTheDevicesThatServeItsGroup() throws {
            let centre = try Centre()
            let store = centre.store, f = centre.f
            defer { f.database.drop() }
            var devices: [String: TestDevice] = [:]
            for name in ["classroom", "therapy", "office", "granted", "stranger", "gone"] {
                var device = TestDevice()
                try f.join(&device, children: [], name: name)
                devices[name] = device
            }
            func id(_ name: String) throws -> DeviceID { try #require(devices[name]).id }
            let class1 = try store.addGroup(name: "Class 1", actor: centre.editor)
            let therapy = try store.addGroup(name: "Therapy", actor: centre.editor)
            let class2 = try store.addGroup(name: "Class 2", actor: centre.editor)
            for (group, child) in [("Class 1", centre.mina), ("Class 1", centre.joon), ("Therapy", centre.mina), ("Class 2", centre.sora)] {
                try store.addGroupChild(group: group, child: child, actor: centre.editor)
            }
            try store.giveGroup(device: try id("classroom"), group: "Class 1", actor: centre.editor)
            try store.giveGroup(device: try id("therapy"), group: "Therapy", actor: centre.editor)
            try store.giveGroup(device: try id("office"), group: "Class 2", actor: centre.editor)
            try store.grant(device: try id("granted"), children: [centre.joon], actor: centre.editor)

            func serving(_ group: CentreStore.Group) throws -> Set<String> {
                Set(try store.devices(serving: group.id, children: group.children).map(\.name))
            }
            let first = try #require(try store.group(id: class1.id))
            #expect(first.children == [centre.mina, centre.joon].sorted())
            #expect(try serving(first) == ["home", "classroom", "therapy", "granted"])
            #expect(try serving(try #require(try store.group(id: class2.id))) == ["home", "office"])
            #expect(try serving(try #require(try store.group(id: therapy.id))) == ["home", "classroom", "therapy"])
            // The one group asked for, the first by name, and the names for the page's choice: as
            // every group's list has them.
            let all = try store.groups()
            #expect(try store.group(id: class2.id) == all.first { $0.id == class2.id })
            #expect(try store.firstGroup() == all.first && all.first?.name == "Class 1")
            #expect(try store.groupNames().map(\.name) == all.map(\.name))
            #expect(try store.group(id: 999_999) == nil)
            // Names of the devices that made presses: a removed device has none.
            #expect(try store.remove(device: try id("gone"), actor: centre.admin))
            #expect(try store.deviceNames([try id("office"), try id("gone")]) == [try id("office"): "office"])
            // A child's name for its month page: none for an archived child or an unknown id.
            #expect(try store.childName(centre.mina) == "Mina")
            var home = centre.home
            _ = try f.push(home, [home.change(.child, centre.sora, child: centre.sora, "archived", .bool(true), now: f.now)])
            #expect(try store.childName(centre.sora) == nil)
            #expect(try store.childName("'); DROP TABLE registers; --") == nil)
        }

        @Test func aPushWaitingForAGroupChangeIsDecidedWithTheGroupAfterIt() throws {
            let centre = try Centre()
            let store = centre.store, f = centre.f
            defer { f.database.drop() }
            var school = TestDevice()
            try f.join(&school, children: [], name: "school")
            let group = try store.addGroup(name: "Class 1", actor: centre.editor)
            try store.addGroupChild(group: "Class 1", child: centre.mina, actor: centre.editor)
            try store.addGroupChild(group: "Class 1", child: centre.joon, actor: centre.editor)
            try store.giveGroup(device: school.id, group: "Class 1", actor: centre.editor)
            _ = try f.pullAll(&school)
            // A group change in progress, in the store's order: the group's devices held, then Joon taken out.
            let slow = try PostgresConnection(conninfo: f.database.conninfo)
            try slow.run("BEGIN")
            try slow.run("SELECT 1 FROM devices WHERE group_id = $1 ORDER BY id FOR UPDATE", [.integer(group.id)])
            try slow.run("DELETE FROM group_children WHERE group_id = $1 AND child = $2", [.integer(group.id), .text(centre.joon)])
            let press = school.press(child: centre.joon, routine: "r", now: f.now)
            let outcome = Mutex<Result<PushReply, SyncRefusal>?>(nil)
            let done = DispatchGroup()
            let pusher = school
            DispatchQueue.global().async(group: done) {
                let result = Result { () throws(SyncRefusal) -> PushReply in try f.push(pusher, [press]) }
                outcome.withLock { $0 = result }
            }
            usleep(300_000)
            #expect(outcome.withLock { $0 } == nil, "the push did not wait for the group change")
            try slow.run("COMMIT")
            done.wait()
            #expect(outcome.withLock { $0 } == .failure(.childNotGiven(child: centre.joon)))
        }

        @Test func aNameLikeDropTableRoundTrips() throws {
            let centre = try Centre()
            let store = centre.store, f = centre.f
            defer { f.database.drop() }
            let hostile = "'); DROP TABLE staff; --"
            let member = try store.addStaff(name: hostile, password: Self.password, role: .editor, actor: centre.admin)
            #expect(member.name == hostile)
            #expect(try store.signIn(name: hostile, password: Self.password, now: f.now) == member)
            let group = try store.addGroup(name: "'); DROP TABLE groups; --", actor: member)
            try store.addGroupChild(group: group.name, child: centre.mina, actor: member)
            #expect(try store.groups().map(\.name) == ["'); DROP TABLE groups; --"])
            #expect(try store.staff().map(\.name).contains(hostile))
            try store.removeStaff(name: hostile, actor: centre.admin)
            #expect(try !store.staff().map(\.name).contains(hostile))
        }

        @Test func theStaffMigrationKeepsTheDevicesOfThePreviousSchema() throws {
            let database = try CentreTestDatabase()
            defer { database.drop() }
            let c = try PostgresConnection(conninfo: database.conninfo)
            let previous = Array(HubSchema.migrations.prefix { $0.id != "2026-12-hub-v3-staff" })
            #expect(previous.count == 2)
            try PostgresMigrator(previous).migrate(c)
            try c.run("INSERT INTO hub_state (id, device_id) VALUES ('singleton', $1)", [.text(DeviceID(UUID()).text)])
            let pool = PostgresPool(conninfo: database.conninfo, size: 2)
            let old = CentreStore(pool: pool)
            let hub = PostgresSyncHub(store: old, clock: ManualWallClock(Date(timeIntervalSince1970: 1_796_000_000)), log: { _ in })
            var home = TestDevice()
            try old.invite(codeHash: PostgresSyncHub.codeHash("12345678"), children: [], expiresAt: Int64.max / 2)
            home.credential = try hub.join(JoinRequest(code: "12345678", deviceName: "home", device: home.id)).credential
            // Now the new migration: the device is still there, in no group, and still pushes.
            #expect(try HubSchema.migrator.migrate(c) == HubSchema.migrations.map(\.id).drop { $0 != "2026-12-hub-v3-staff" }.map { $0 })
            #expect(try c.queryFirst("SELECT group_id IS NULL FROM devices WHERE id = $1", [.text(home.id.text)], { try $0.bool(0) }) == true)
            let child = UUID().uuidString.lowercased()
            let now = SyncProtocol.milliseconds(hub.clock.now())
            let reply = try hub.push(PushRequest(device: home.id, sentAt: now,
                                                 entries: [home.change(.child, child, child: child, "name", .string("Mina"), now: now)]),
                                     credential: home.credential)
            #expect(reply.acknowledged == 1)
            #expect(try old.devices().first?.children == [child])
        }
    }
}
