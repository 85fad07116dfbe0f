import Foundation
import SteppieCore
@testable import SteppieStore

/// A fresh database file in a temporary directory, removed when the fixture goes away.
final class StoreFixture {
    let directory: URL
    let path: String
    let store: Store
    let zone: TimeZone
    var now: Date

    init(zone: String = "Asia/Seoul", now: String = "2026-03-02T07:00:00+09:00") throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("steppie-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        path = directory.appendingPathComponent("steppie.db").path
        self.zone = TimeZone(identifier: zone) ?? .current
        store = try Store(path: path, timeZone: self.zone)
        self.now = Timestamp.parse(now) ?? Date()
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    var today: LocalDay { LocalDay(now, in: zone) }
    /// `now` on the guardian's clock (one boot, 1000 s after it started).
    var secure: SecureInstant { SecureInstant(wall: now, boot: BootTime(id: "test-boot", seconds: 1000)) }

    /// A child with an active morning set.
    func childWithMorning(_ name: String = "Mina") throws -> Child {
        let child = try store.addChild(name: name, at: now)
        try store.createSet(childId: child.id, template: .morning, at: now)
        return child
    }

    /// A second connection to the same file, as another process would have.
    func rawConnection() throws -> Connection { try Connection(path: path) }
}
