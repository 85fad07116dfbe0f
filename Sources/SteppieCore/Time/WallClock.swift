import Foundation
import Synchronization

/// Where the current instant comes from. The core never reads the time itself.
public protocol WallClock: Sendable {
    func now() -> Date
}

/// A clock that only moves when told to, for tests and replays.
public final class ManualWallClock: WallClock {
    private let current: Mutex<Date>

    public init(_ start: Date) { current = Mutex(start) }

    public func now() -> Date { current.withLock { $0 } }

    public func advance(by seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }

    public func set(_ date: Date) { current.withLock { $0 = date } }
}

/// Formats and parses ISO 8601 timestamps that always carry their UTC offset.
public enum Timestamp {
    /// `2026-03-08T07:30:00.000-05:00`, in `timeZone`'s offset at that instant.
    public static func format(_ date: Date, in timeZone: TimeZone) -> String {
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = timeZone
        let c = cal.dateComponents([.year, .month, .day, .hour, .minute, .second, .nanosecond], from: date)
        let millis = min(999, Int((Double(c.nanosecond ?? 0) / 1_000_000).rounded()))
        let offset = timeZone.secondsFromGMT(for: date)
        let sign = offset < 0 ? "-" : "+"
        let abs = Swift.abs(offset)
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02d.%03d%@%02d:%02d",
                      c.year ?? 0, c.month ?? 0, c.day ?? 0, c.hour ?? 0, c.minute ?? 0, c.second ?? 0,
                      millis, sign, abs / 3600, (abs % 3600) / 60)
    }

    /// Parses `YYYY-MM-DDTHH:mm:ss[.fff][Z|±HH:mm|±HHmm]`; an offset (or `Z`) is required.
    public static func parse(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { parse(utf8: $0) }
    }

    /// `parse(_:)` over the text's UTF-8 bytes.
    public static func parse(utf8 u: UnsafeBufferPointer<UInt8>) -> Date? {
        func num(_ from: Int, _ len: Int) -> Int? {
            guard from + len <= u.count else { return nil }
            var v = 0
            for i in from..<from + len {
                let b = u[i]
                guard b >= 48 && b <= 57 else { return nil }
                v = v * 10 + Int(b - 48)
            }
            return v
        }
        guard u.count >= 20, u[4] == 45, u[7] == 45, u[10] == 84 || u[10] == 116, u[13] == 58, u[16] == 58,
              let y = num(0, 4), let mo = num(5, 2), let d = num(8, 2),
              let h = num(11, 2), let mi = num(14, 2), let s = num(17, 2),
              let day = LocalDay(year: y, month: mo, day: d), h < 24, mi < 60, s < 61 else { return nil }
        var i = 19
        var fraction = 0.0
        if i < u.count, u[i] == 46 {
            i += 1
            var scale = 0.1
            let start = i
            while i < u.count, u[i] >= 48, u[i] <= 57 { fraction += Double(u[i] - 48) * scale; scale /= 10; i += 1 }
            guard i > start else { return nil }
        }
        guard i < u.count else { return nil }
        var offset = 0
        if u[i] == 90 || u[i] == 122 {
            i += 1
        } else if u[i] == 43 || u[i] == 45 {
            let sign = u[i] == 45 ? -1 : 1
            i += 1
            guard let oh = num(i, 2) else { return nil }
            i += 2
            if i < u.count, u[i] == 58 { i += 1 }
            guard let om = num(i, 2), oh < 24, om < 60 else { return nil }
            i += 2
            offset = sign * (oh * 3600 + om * 60)
        } else { return nil }
        guard i == u.count else { return nil }
        let seconds = Double(day.dayNumber) * 86400 + Double(h * 3600 + mi * 60 + s) + fraction - Double(offset)
        return Date(timeIntervalSince1970: seconds)
    }
}
