import Foundation
import SteppieCore
import SteppieGuardianWeb
import SteppieSecurity
import SteppieStore
import SteppieSync
import SteppieTLS
import Testing

/// The guardian's sync page (`/guardian/sync`, issue 27 item 6) in process: the join form and its
/// refusals (nothing joined), a joined device's state, "Sync now" against a hub that is away,
/// "Leave the hub" with its confirmation, and on a hub: a joining code shown once, its devices,
/// "Remove" with its confirmation and the last conflicts. Never a credential nor a code's hash.
@Suite("Guardian pages: sync")
struct GuardianSyncTests {
    /// A hub address where nothing listens (connection refused at once).
    static let deadHub = "https://127.0.0.1:1"
    static let fingerprint = Array(repeating: "AB", count: 32).joined(separator: ":")

    @Test("a device that does not sync: the page explains, links the hub's command, and the home page's navigation leads there")
    func offPage() throws {
        let f = try GuardianWebFixture()
        let (cookie, _) = try f.signIn()
        #expect(f.get("/guardian/", cookie: cookie).text.contains("href=\"/guardian/sync\""))
        let page = f.get("/guardian/sync", cookie: cookie)
        #expect(page.status == 200 && page.text.contains("data-screen=\"sync\"") && page.text.contains("data-sync=\"off\""), "\(page.text)")
        #expect(page.text.contains("data-form=\"sync-join\"") && page.text.contains("steppie serve --hub ADDR:PORT"))
        for field in ["hubURL", "joinCode", "fingerprint", "deviceName"] { #expect(page.text.contains("name=\"\(field)\"")) }
        let ko = f.get("/guardian/sync", cookie: cookie, query: ["lang": "ko"])
        #expect(ko.text.contains("이 기기는 동기화하지 않아요"))
        // Signed out: back to the PIN pad; a form without the page's token: refused.
        #expect(f.get("/guardian/sync").status == 303)
        #expect(f.post("/guardian/sync/join", cookie: cookie, form: ["hubURL": Self.deadHub]).status == 403)
    }

    @Test("a join the page refuses names its field, keeps what was typed but the code, and joins nothing",
          arguments: [("ftp://hub:1", "12345678", fingerprint, "Kitchen", "hubURL"),
                      (deadHub, "1234-567", fingerprint, "Kitchen", "joinCode"),
                      (deadHub, "1234-5678", "AB:CD", "Kitchen", "fingerprint"),
                      (deadHub, "1234-5678", fingerprint, "", "deviceName")])
    func joinRefused(_ url: String, _ code: String, _ fingerprint: String, _ name: String, _ field: String) throws {
        let f = try GuardianWebFixture()
        let (cookie, csrf) = try f.signIn()
        let before = try f.dump()
        let reply = f.post("/guardian/sync/join", cookie: cookie,
                           form: ["csrf": csrf, "hubURL": url, "joinCode": code, "fingerprint": fingerprint, "deviceName": name])
        #expect(reply.status == 400 && reply.text.contains("data-error-field=\"\(field)\""), "\(reply.text)")
        #expect(reply.text.contains("id=\"\(field)\"") && reply.text.contains("aria-invalid=\"true\""))
        #expect(!reply.text.contains("value=\"\(code)\""))
        #expect(try f.store.syncState() == nil)
        #expect(try f.dump() == before)
    }

    @Test("joining a hub that is away says so without its address or the system's words, and joins nothing")
    func joinUnreachable() throws {
        let f = try GuardianWebFixture()
        let (cookie, csrf) = try f.signIn()
        let reply = f.post("/guardian/sync/join", cookie: cookie,
                           form: ["csrf": csrf, "hubURL": Self.deadHub, "joinCode": "1234-5678", "fingerprint": Self.fingerprint, "deviceName": "Kitchen"])
        #expect(reply.status == 502 && reply.text.contains("data-error-field=\"hubURL\""), "\(reply.text)")
        #expect(!reply.text.contains("127.0.0.1:1 ") && !reply.text.contains("refused"), "\(reply.text)")
        #expect(reply.text.contains("value=\"\(Self.deadHub)\"") && reply.text.contains("Kitchen"))
        #expect(try f.store.syncState() == nil)
    }

    @Test("a joined device: the hub, what waits, the last refusal and the clock warning; Sync now says why it failed; no credential shown")
    func joinedDevice() throws {
        let f = try GuardianWebFixture()
        let credential = "credential-that-must-never-show-0123456789"
        try f.store.joinSyncHub(device: DeviceID(UUID()), hubURL: Self.deadHub, fingerprint: Self.fingerprint, hubDevice: DeviceID(UUID()),
                                credential: credential, at: f.wall.now())
        let pending = try f.store.syncPendingCount()
        #expect(pending > 0)
        let (cookie, csrf) = try f.signIn()
        var page = f.get("/guardian/sync", cookie: cookie)
        #expect(page.status == 200 && page.text.contains("data-sync=\"device\"") && page.text.contains("data-hub-url=\"\(Self.deadHub)\""))
        #expect(page.text.contains("data-fingerprint=\"\(Self.fingerprint)\"") && page.text.contains("data-pending=\"\(pending)\""))
        #expect(!page.text.contains("data-clock-warning") && !page.text.contains("data-refusal"))
        #expect(page.text.contains("data-conflicts=\"none\""))

        // The hub refused this clock (10 minutes ahead): the sentence and the warning.
        try f.store.syncRefused(.clockSkew(offsetMilliseconds: 600_000), physical: Int64(f.wall.now().timeIntervalSince1970 * 1000))
        page = f.get("/guardian/sync", cookie: cookie)
        #expect(page.text.contains("data-refusal=\"clockSkew\"") && page.text.contains("10 min 0 s ahead"), "\(page.text)")
        #expect(page.text.contains("data-clock-warning") && page.text.contains("600 seconds"))

        let now = f.post("/guardian/sync/now", cookie: cookie, form: ["csrf": csrf])
        #expect(now.status == 502 && now.text.contains("role=\"alert\""), "\(now.text)")
        #expect(!now.text.contains("127.0.0.1:1 "))
        for reply in [page, now] { #expect(!reply.text.contains(credential)) }
        #expect(try f.store.syncPendingCount() == pending)
    }

    @Test("Leave the hub asks first; confirmed, the device stops syncing and keeps its data")
    func leave() throws {
        let f = try GuardianWebFixture()
        try f.store.joinSyncHub(device: DeviceID(UUID()), hubURL: Self.deadHub, fingerprint: Self.fingerprint, hubDevice: DeviceID(UUID()),
                                credential: "c", at: f.wall.now())
        let (cookie, csrf) = try f.signIn()
        let ask = f.post("/guardian/sync/leave", cookie: cookie, form: ["csrf": csrf])
        #expect(ask.status == 200 && ask.text.contains("data-confirm=\"leave\"") && ask.text.contains("data-form=\"sync-leave-confirm\""))
        #expect(try f.store.syncState() != nil)
        let done = f.post("/guardian/sync/leave", cookie: cookie, form: ["csrf": csrf, "confirm": "yes"])
        #expect(done.status == 303)
        #expect(try f.store.syncState() == nil)
        #expect(try f.store.children().map(\.displayName) == ["Mina"])
        let page = f.get("/guardian/sync", cookie: cookie)
        #expect(page.text.contains("data-sync=\"off\"") && page.text.contains("role=\"status\""))
    }

    @Test("on the hub: a joining code shown once with the fingerprint, the device that joined with it, Remove with a confirmation, the last conflicts")
    func hub() throws {
        let f = try GuardianWebFixture()
        let ruby = try f.store.addChild(name: "Ruby", at: f.wall.now())
        try f.store.becomeSyncHub(device: DeviceID(UUID()), at: f.wall.now())
        let identity = try TLSIdentityStore(databasePath: f.db).loadOrCreate(commonName: "hub", dnsNames: [], ipAddresses: ["127.0.0.1"],
                                                                               now: f.wall.now()).identity
        let (cookie, csrf) = try f.signIn()
        var page = f.get("/guardian/sync", cookie: cookie)
        #expect(page.text.contains("data-sync=\"hub\"") && page.text.contains("data-fingerprint=\"\(identity.fingerprint)\""), "\(page.text)")
        #expect(page.text.contains("data-devices=\"none\"") && page.text.contains("name=\"child-\(ruby.id.lowercased)\""))

        // No child chosen: refused, no code made.
        let none = f.post("/guardian/sync/invite", cookie: cookie, form: ["csrf": csrf])
        #expect(none.status == 400 && none.text.contains("data-error-field=\"children\"") && !none.text.contains("data-code="))

        let made = f.post("/guardian/sync/invite", cookie: cookie, form: ["csrf": csrf, "child-\(f.child.id.lowercased)": "on"])
        #expect(made.status == 200, "\(made.text)")
        let code = try #require(made.text.firstMatch(of: /data-code="(\d{4}-\d{4})"/)?.1).description
        let digits = code.replacingOccurrences(of: "-", with: "")
        #expect(made.text.contains("data-fingerprint=\"\(identity.fingerprint)\"") && made.text.contains("It gives: Mina."))
        #expect(made.text.contains("until 1 Dec 2025, 09:10"), "\(made.text)")
        let hash = SHA256.hex(of: Data(digits.utf8))
        #expect(!made.text.contains(hash))
        // Shown once: the page afterwards has no code; the database keeps only its hash.
        #expect(!f.get("/guardian/sync", cookie: cookie).text.contains("data-code="))
        #expect(try !f.dump().contains(digits))

        // A device joins with it (as the hub's route does): it gets Mina only.
        let device = DeviceID(UUID())
        let joined = try f.store.syncHubJoin(codeHash: hash, device: device, name: "Kitchen", credentialHash: String(repeating: "7", count: 64),
                                             now: Int64(f.wall.now().timeIntervalSince1970 * 1000))
        #expect(joined.children == [f.child.id.lowercased])
        page = f.get("/guardian/sync", cookie: cookie)
        #expect(page.text.contains("data-device-id=\"\(device.text)\"") && page.text.contains("<h3>Kitchen</h3>"))
        #expect(page.text.contains("<dd>Mina</dd>") && page.text.contains("data-acknowledged=\"0\""))
        #expect(!page.text.contains(String(repeating: "7", count: 64)))

        // Conflicts: newest first, said in words (never SQLite's).
        let raw = try Connection(path: f.db)
        try raw.run("INSERT INTO sync_conflicts (at, entity, record, reason) VALUES (1764547300000, 'child', 'abcdef12-0000', 'UNIQUE constraint failed: children.display_name')")
        page = f.get("/guardian/sync", cookie: cookie)
        #expect(page.text.contains("data-conflict=\"duplicate\"") && page.text.contains("abcdef12") && !page.text.contains("UNIQUE"), "\(page.text)")

        let ask = f.post("/guardian/sync/remove", cookie: cookie, form: ["csrf": csrf, "device": device.text])
        #expect(ask.status == 200 && ask.text.contains("data-confirm=\"remove\""))
        #expect(try f.store.syncHubDevices().count == 1)
        let removed = f.post("/guardian/sync/remove", cookie: cookie, form: ["csrf": csrf, "device": device.text, "confirm": "yes"])
        #expect(removed.status == 303)
        #expect(try f.store.syncHubDevices().isEmpty)
        #expect(f.get("/guardian/sync", cookie: cookie).text.contains("Kitchen was removed from the hub."))
    }
}
