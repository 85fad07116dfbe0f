import Foundation

extension LocalDay {
    /// The first instant of this day at which the local wall clock reads `time` or later.
    ///
    /// On an ordinary day that is `time` itself. A time skipped by a spring-forward gap (02:30 in
    /// New York on the DST day) gives the first instant after the gap (03:00 EDT); a time that
    /// happens twice on a fall-back night gives its first occurrence (01:30 EDT), so a schedule
    /// entry takes effect once. Only `TimeZone.secondsFromGMT(for:)` is used, which behaves the
    /// same on every platform (unlike `Calendar.date(from:)` inside a gap).
    public func firstInstant(atOrAfter time: LocalTime, in timeZone: TimeZone) -> Date {
        // The wall time as if it were UTC, in seconds since the epoch.
        let wall = Double(dayNumber) * 86_400 + Double(time.minutesSinceMidnight) * 60
        func offset(_ t: Double) -> Double { Double(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: t))) }
        // The instant lies within ±14 h of `wall`; a day either side sees the offsets before and
        // after any transition near it (zones change offset at most once in two days).
        let offsets: Set<Double> = [offset(wall - 86_400), offset(wall), offset(wall + 86_400)]
        // Instants whose wall clock reads exactly `time`: the earliest one when it happens twice.
        let exact = offsets.map { wall - $0 }.filter { offset($0) == wall - $0 }
        if let first = exact.min() { return Date(timeIntervalSince1970: first) }
        // Skipped: the gap lies between the instant read with the later offset and the one read
        // with the earlier offset; find the transition (the first instant on the new offset).
        let sorted = offsets.sorted()
        guard let low = sorted.last.map({ wall - $0 }), let high = sorted.first.map({ wall - $0 }) else {
            return Date(timeIntervalSince1970: wall)
        }
        var lo = low, hi = high
        let before = offset(lo)
        while hi - lo > 0.5 {
            let mid = ((lo + hi) / 2).rounded(.down)
            if mid <= lo { break }
            if offset(mid) == before { lo = mid } else { hi = mid }
        }
        return Date(timeIntervalSince1970: hi.rounded(.up))
    }
}
