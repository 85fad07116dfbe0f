import Foundation
import SteppieCore
import SteppieFiles

/// One JSON object per line for other front ends (a kiosk screen, a big-button controller):
/// every transition and every cue, with type, activity id, title, time and progress.
///
/// A write that fails (a closed pipe, a full disk) turns the log off and is reported once through
/// `onFailure`; child mode goes on.
public final class EventLog {
    private let write: (String) throws(FileRefusal) -> Void
    private let zone: TimeZone
    private let locale: String
    private var failed = false
    /// Told once, on the first failed write.
    public var onFailure: ((FileRefusal) -> Void)?

    public init(zone: TimeZone, locale: String, write: @escaping (String) throws(FileRefusal) -> Void) {
        self.write = write
        self.zone = zone
        self.locale = locale
    }

    /// Opens `-` (standard output) or appends to a file (created owner-only; anything but a
    /// regular file is refused untouched).
    public static func open(_ target: String, zone: TimeZone, locale: String) throws -> EventLog {
        if target == "-" {
            return EventLog(zone: zone, locale: locale) { line throws(FileRefusal) in
                try Descriptor.writeAll(STDOUT_FILENO, line + "\n", path: "standard output")
            }
        }
        let fd = try OwnerOnly.openForWriting(target, truncate: false, append: true)
        let file = OpenFile(fd)
        return EventLog(zone: zone, locale: locale) { line throws(FileRefusal) in
            try Descriptor.writeAll(file.fd, line + "\n", path: target)
        }
    }

    public func record(_ type: String, routine: Routine?, state: ChildModeState, at now: Date, extra: [String: Any] = [:]) {
        guard !failed else { return }
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
        do throws(FileRefusal) {
            try write(String(decoding: data, as: UTF8.self))
        } catch {
            failed = true
            onFailure?(error)
        }
    }
}

/// A descriptor closed when the last reference goes.
public final class OpenFile {
    public let fd: Int32
    public init(_ fd: Int32) { self.fd = fd }
    deinit { close(fd) }
}
