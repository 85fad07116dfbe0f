import Foundation
import SteppiePostgres
import SteppieTestSupport
import Testing

/// The staff pages' groups, grants and staff removal (docs/centre.md, "The staff pages") against
/// a real `steppie hub` on the private PostgreSQL: what each role may post, what the database holds
/// after it, and that a refused post leaves every row as it was.
extension CentreStaffPagesTests {
    /// Two children the hub holds (their `child` name registers, as a device's push leaves them)
    /// and a joined device; their ids.
    static func seed(_ centre: Centre) throws -> (mina: String, joon: String, device: String) {
        let c = try PostgresConnection(conninfo: centre.conninfo)
        let stamp = String(repeating: "0", count: 14) + "1-00000000-" + UUID().uuidString.lowercased()
        let mina = UUID().uuidString.lowercased(), joon = UUID().uuidString.lowercased(), device = UUID().uuidString.lowercased()
        for (id, name) in [(mina, "Mina"), (joon, "Joon")] {
            try c.run("INSERT INTO registers (entity, record, field, child, value, stamp) VALUES ('child', $1, 'name', $1, to_jsonb($2::text), $3)",
                      [.text(id), .text(name), .text(stamp)])
        }
        try c.run("""
            INSERT INTO devices (id, name, credential_hash, children, joined_at) VALUES ($1, 'Room 3', $2, '[]', '2026-12-04T09:00:00.000Z')
            """, [.text(device), .text(String(repeating: "c", count: 64))])
        return (mina, joon, device)
    }

    /// Every row the pages' forms can change, as text: the "dump" compared before and after a refused post.
    static func dump(_ centre: Centre) throws -> String {
        let c = try PostgresConnection(conninfo: centre.conninfo)
        return try [
            "SELECT id::text || '|' || name FROM groups ORDER BY id",
            "SELECT group_id::text || '|' || child FROM group_children ORDER BY group_id, child",
            "SELECT id || '|' || COALESCE(group_id::text, '-') || '|' || children::text || '|' || needs_copy::text FROM devices ORDER BY id",
            "SELECT name || '|' || role || '|' || (removed_at IS NULL)::text FROM staff ORDER BY id",
            "SELECT COUNT(*)::text FROM invites",
            "SELECT COUNT(*)::text FROM staff_sessions",
        ].map { sql in try c.query(sql, [], { try $0.text(0) }).joined(separator: "\n") }.joined(separator: "\n--\n")
    }

    /// The new forms, each with a form that would change something if it were let through.
    static func newForms(group: String, child: String, device: String) -> [(path: String, form: [String: String])] {
        [("/staff/group/add", ["group": "Moon"]),
         ("/staff/group/remove", ["group": group]),
         ("/staff/group/child/add", ["group": group, "child": child]),
         ("/staff/group/child/remove", ["group": group, "child": child]),
         ("/staff/device/group", ["device": device, "group": ""]),
         ("/staff/device/children", ["device": device, "child-\(child)": "on"]),
         ("/staff/staff/remove", ["name": "Vic"])]
    }

    @Test func anEditorEditsGroupsAndGrantsAViewerChangesNothingAndNeitherRemovesStaff() throws {
        let centre = try Centre()
        let url = try centre.start()
        let (mina, joon, device) = try Self.seed(centre)
        let editor = Browser(url, in: centre.h.directory)
        let eve = try #require(editor.signIn("Eve", "eve password 1").csrf)
        let db = try PostgresConnection(conninfo: centre.conninfo)

        // The editor's pages: the group and grant forms, not the admin's.
        let emptyGroups = editor.request("/staff/groups")
        #expect(emptyGroups.status == 200 && emptyGroups.body.contains("data-screen=\"groups\"") && emptyGroups.body.contains("data-form=\"add-group\""))
        #expect(editor.request("/staff/group/add", form: ["csrf": eve, "group": "Sun"]).status == 303)
        let sun = try #require(try db.queryFirst("SELECT id FROM groups WHERE name = 'Sun'", [], { try $0.int(0) }))
        #expect(editor.request("/staff/group/child/add", form: ["csrf": eve, "group": "sun", "child": mina]).status == 303)
        #expect(try db.query("SELECT child FROM group_children WHERE group_id = $1", [.integer(sun)], { try $0.text(0) }) == [mina])
        #expect(editor.request("/staff/device/group", form: ["csrf": eve, "device": device, "group": "Sun"]).status == 303)
        #expect(try db.queryFirst("SELECT group_id, needs_copy FROM devices WHERE id = $1", [.text(device)],
                                  { (try $0.int(0), try $0.bool(1)) }).map { $0.0 == sun && $0.1 } == true)
        #expect(editor.request("/staff/device/children", form: ["csrf": eve, "device": device, "child-\(joon)": "on",
                                                               "child-not-a-child": "on"]).status == 303)
        #expect(try db.queryFirst("SELECT children::text FROM devices WHERE id = $1", [.text(device)], { try $0.text(0) }) == "[\"\(joon)\"]")
        let groups = editor.request("/staff/groups").body
        #expect(groups.contains("<li data-child-id=\"\(mina)\"><span>Mina</span>") && groups.contains("Take Mina out of Sun"), "\(groups)")
        #expect(groups.contains("Devices given this group: 1") && groups.contains("Remove the group Sun"))
        let admin = editor.request("/staff/admin").body
        #expect(admin.contains("data-form=\"device-group\"") && admin.contains("data-form=\"device-children\""), "\(admin)")
        #expect(admin.contains("data-group=\"Sun\"") && admin.contains("Group: Sun") && admin.contains("Its own children: Joon"))
        #expect(admin.contains("id=\"d-\(device)-c-\(joon)\" name=\"child-\(joon)\" value=\"on\" checked"))
        #expect(!admin.contains("data-form=\"remove-staff\"") && !admin.contains("data-form=\"remove-device\"") && !admin.contains("data-form=\"invite\""))

        // A viewer sees it all, with no form, and every post is 403 with every row as it was.
        let viewer = Browser(url, in: centre.h.directory)
        let vic = try #require(viewer.signIn("Vic", "vic password 1").csrf)
        let seen = viewer.request("/staff/groups").body + viewer.request("/staff/admin").body
        #expect(seen.contains("Take") == false && seen.contains("<span>Mina</span>") && seen.contains("Group: Sun"))
        for form in ["add-group", "remove-group", "add-group-child", "remove-group-child", "device-group", "device-children", "remove-staff"] {
            #expect(!seen.contains("data-form=\"\(form)\""), "\(form)")
        }
        let before = try Self.dump(centre)
        for (path, form) in Self.newForms(group: "Sun", child: mina, device: device) {
            #expect(viewer.request(path, form: form.merging(["csrf": vic]) { a, _ in a }).status == 403, "\(path)")
        }
        // The editor removes no member; nor does a bad CSRF token do anything, whatever the form.
        #expect(editor.request("/staff/staff/remove", form: ["csrf": eve, "name": "Vic"]).status == 403)
        for (path, form) in Self.newForms(group: "Sun", child: mina, device: device) {
            #expect(editor.request(path, form: form.merging(["csrf": String(repeating: "0", count: 64)]) { a, _ in a }).status == 403, "\(path)")
            #expect(editor.request(path, form: form).status == 403, "\(path) without a token")
        }
        #expect(try Self.dump(centre) == before)

        // Back out: the child taken out, the group removed (the device keeps its own child).
        #expect(editor.request("/staff/group/child/remove", form: ["csrf": eve, "group": "Sun", "child": mina]).status == 303)
        #expect(try centre.count("SELECT COUNT(*) FROM group_children") == 0)
        #expect(editor.request("/staff/group/remove", form: ["csrf": eve, "group": "Sun"]).status == 303)
        #expect(try centre.count("SELECT COUNT(*) FROM groups") == 0)
        #expect(try db.queryFirst("SELECT COALESCE(group_id::text, '-') || children::text FROM devices", [], { try $0.text(0) }) == "-[\"\(joon)\"]")
        // A store refusal is the page's error, 400, in the page's language.
        let missing = editor.request("/staff/group/remove", form: ["csrf": eve, "group": "Sun"])
        #expect(missing.status == 400 && missing.body.contains("role=\"alert\"><p>no group is called Sun</p>"), "\(missing.status) \(missing.body)")
        #expect(editor.request("/staff/group/add", form: ["csrf": eve, "group": "  "]).status == 400)
    }

    @Test func anAdminRemovesAMemberWhoIsSignedOutAtOnceButNotTheLastAdmin() throws {
        let centre = try Centre()
        let url = try centre.start()
        let ada = Browser(url, in: centre.h.directory), eve = Browser(url, in: centre.h.directory)
        let adaToken = try #require(ada.signIn("Ada", "ada password 1").csrf)
        let eveToken = try #require(eve.signIn("Eve", "eve password 1").csrf)
        #expect(eve.request("/staff/admin").status == 200)
        let admin = ada.request("/staff/admin").body
        #expect(admin.contains("data-form=\"remove-staff\"") && admin.contains("Remove Eve"), "\(admin)")

        #expect(ada.request("/staff/staff/remove", form: ["csrf": adaToken, "name": "eve"]).status == 303)
        #expect(try centre.count("SELECT COUNT(*) FROM staff WHERE name = 'Eve' AND removed_at IS NOT NULL") == 1)
        // Eve's very next request, a page or a form, goes to the sign-in page.
        let page = eve.request("/staff/admin")
        #expect(page.status == 302 && page.headers.contains("Location: /staff/sign-in"), "\(page.status) \(page.headers)")
        #expect(eve.request("/staff/group/add", form: ["csrf": eveToken, "name": "Sun"]).status == 302)
        #expect(try centre.count("SELECT COUNT(*) FROM groups") == 0)
        #expect(!ada.request("/staff/admin").body.contains("data-staff=\"Eve\""))

        // The last admin stays: the store's sentence as the page's error, in English and in Korean.
        let before = try Self.dump(centre)
        let last = ada.request("/staff/staff/remove", form: ["csrf": adaToken, "name": "Ada"])
        #expect(last.status == 400 && last.body.contains("this is the hub&#39;s last admin: add another admin first"), "\(last.status) \(last.body)")
        #expect(last.body.contains("data-screen=\"admin\""))
        #expect(ada.request("/staff/admin?lang=ko").status == 200)
        let korean = ada.request("/staff/staff/remove", form: ["csrf": adaToken, "name": "Ada"])
        #expect(korean.status == 400 && korean.body.contains("허브의 마지막 관리자예요: 먼저 다른 관리자를 추가해 주세요"), "\(korean.body)")
        let nobody = ada.request("/staff/staff/remove", form: ["csrf": adaToken, "name": "Nobody"])
        #expect(nobody.status == 400 && nobody.body.contains("Nobody"))
        #expect(try Self.dump(centre) == before)
        #expect(ada.request("/staff/admin").status == 200)
    }

    @Test func aHostileGroupNameRoundTripsAsTextAndShowsEscaped() throws {
        let centre = try Centre()
        let url = try centre.start()
        let (mina, _, device) = try Self.seed(centre)
        let editor = Browser(url, in: centre.h.directory)
        let eve = try #require(editor.signIn("Eve", "eve password 1").csrf)
        let hostile = "<script>alert(1)</script>'); DROP TABLE groups; --"
        #expect(editor.request("/staff/group/add", form: ["csrf": eve, "group": hostile]).status == 303)
        #expect(try PostgresConnection(conninfo: centre.conninfo).query("SELECT name FROM groups", [], { try $0.text(0) }) == [hostile])
        #expect(editor.request("/staff/group/child/add", form: ["csrf": eve, "group": hostile, "child": mina]).status == 303)
        #expect(editor.request("/staff/device/group", form: ["csrf": eve, "device": device, "group": hostile]).status == 303)
        #expect(try centre.count("SELECT COUNT(*) FROM devices WHERE group_id IS NOT NULL") == 1)
        #expect(try centre.count("SELECT COUNT(*) FROM group_children") == 1)
        let escaped = "&lt;script&gt;alert(1)&lt;/script&gt;&#39;); DROP TABLE groups; --"
        for path in ["/staff/groups", "/staff/admin", "/staff/"] {
            let page = editor.request(path).body
            #expect(page.contains(escaped) && !page.contains("<script>alert"), "\(path): \(page)")
        }
        #expect(editor.request("/staff/groups").body.contains("value=\"\(escaped)\""))
        #expect(editor.request("/staff/group/remove", form: ["csrf": eve, "group": hostile]).status == 303)
        #expect(try centre.count("SELECT COUNT(*) FROM groups") == 0)
    }
}
