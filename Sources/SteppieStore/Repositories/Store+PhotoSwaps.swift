import Foundation

/// The restore's journal (`photo_swaps`, schema v7): the staging folder whose photos a restore
/// moved into place, recorded in the restore's own transaction. A row present after a crash
/// means the restore committed (its photos are the right ones); a staging folder without a row
/// means it did not (the old photos go back). See docs/backup.md, "A restore that is killed".
extension Store {
    /// Records `staging` (a folder name beside the photo folder) inside the caller's transaction.
    public func recordPhotoSwap(staging: String, at now: Date) throws {
        try write {
            try db.run("INSERT OR REPLACE INTO photo_swaps (staging, created_at) VALUES (?, ?)", [.text(staging), stamp(now)])
        }
    }

    /// The staging folders of restores that committed and were not cleaned up yet.
    public func photoSwaps() throws -> [String] {
        try read { try db.query("SELECT staging FROM photo_swaps ORDER BY staging") { $0.text(0) } }
    }

    /// Forgets `staging` once its folder is gone.
    public func clearPhotoSwap(staging: String) throws {
        try write { try db.run("DELETE FROM photo_swaps WHERE staging = ?", [.text(staging)]) }
    }
}
