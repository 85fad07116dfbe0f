import Foundation
import SteppieCore

/// One JSON object per line for other front ends (a kiosk screen, a big-button controller):
/// every transition and every cue, with type, activity id, title, time and progress.
public final class EventLog {
    private let write: (String) -> Void
    private let zone: TimeZone
    private let locale: String

    public init(zone: TimeZone, locale: String, write: @escaping (String) -> Void) {
        self.write = write
        self.zone = zone
        self.locale = locale
    }

    /// Opens `-` (standard output) or appends to a file.
    public static func open(_ target: String, zone: TimeZone, locale: String) throws -> EventLog {
        if target == "-" {
            return EventLog(zone: zone, locale: locale) { FileHandle.standardOutput.write(Data(($0 + "\n").utf8)) }
        }
        if !FileManager.default.fileExists(atPath: target) {
            guard FileManager.default.createFile(atPath: target, contents: nil) else {
                throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: target])
            }
        }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: target))
        try handle.seekToEnd()
        return EventLog(zone: zone, locale: locale) { handle.write(Data(($0 + "\n").utf8)) }
    }

    public func record(_ type: String, routine: Routine?, state: ChildModeState, at now: Date, extra: [String: Any] = [:]) {
        var obj: [String: Any] = [
            "type": type,
            "time": Timestamp.format(now, in: zone),
            "date": state.day.description,
            "progress": ["completed": state.shownCompleted, "total": state.plan.total],
        ]
        if let routine {
            obj["activityId"] = routine.id.lowercased
            obj["title"] = routine.title.resolve(chosen: locale, system: nil)
        }
        for (k, v) in extra { obj[k] = v }
        guard let data = try? JSONSerialization.data(withJSONObject: obj, options: [.sortedKeys, .withoutEscapingSlashes]) else { return }
        write(String(decoding: data, as: UTF8.self))
    }
}
