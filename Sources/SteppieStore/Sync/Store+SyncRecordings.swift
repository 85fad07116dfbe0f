import Foundation
import SteppieCore
import SteppieSync

/// Recorded prompts through sync (schema v11, docs/sync.md "Photos and recordings"): a recording
/// arrives as its registers (`routine`, `locale`, `sha256`, `durationMs`, `deleted`); its row names
/// the file by the content's hash (`<sha256>.audio` in `recordings/`), which the agent fetches
/// from the hub when it is not here yet. Until then the routine speaks its title, as it does when
/// a recording's file is missing.
extension Store {
    /// Brings one recording's row to its registers (inside the apply's transaction, triggers quiet).
    func materializeRecording(_ record: String) throws {
        let regs = try registers(.recording, record)
        func string(_ field: String) -> String? { regs[field].flatMap { SyncJSON.value($0.value)?.string } }
        guard let routine = string("routine"), let locale = string("locale"),
              try db.queryFirst("SELECT 1 FROM routines WHERE id = ?", [.text(routine)], { _ in true }) == true else { return }
        if regs["deleted"]?.value == "true" {
            try db.run("DELETE FROM routine_recordings WHERE routine_id = ? AND locale = ?", [.text(routine), .text(locale)])
            return
        }
        guard let sha = string("sha256"), RoutineLook.isSha256(sha),
              let duration = regs["durationMs"].flatMap({ SyncJSON.value($0.value)?.int }) else { return }
        try db.run("""
            INSERT INTO routine_recordings (routine_id, locale, file_name, duration_ms, created_at, sha256) VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT (routine_id, locale) DO UPDATE SET duration_ms = excluded.duration_ms, sha256 = excluded.sha256,
                file_name = CASE WHEN routine_recordings.sha256 IS excluded.sha256 THEN routine_recordings.file_name
                    ELSE excluded.file_name END
            """, [.text(routine), .text(locale), .text(Self.recordingFileName(sha256: sha)), .integer(duration), stamp(Date()),
                  .text(sha)])
    }

    /// The file name a recording that came through sync is kept under.
    package static func recordingFileName(sha256: String) -> String { "\(sha256).audio" }
}
