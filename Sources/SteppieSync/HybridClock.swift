/// A device's hybrid logical clock as a value: the last stamp it gave or saw. The wall time is
/// passed in (the clock never reads the system's), so tests move it by hand.
package struct HybridClock: Hashable, Sendable {
    package let device: DeviceID
    /// The largest stamp made or observed so far.
    package private(set) var last: HybridTimestamp

    package init(device: DeviceID, last: HybridTimestamp? = nil) {
        self.device = device
        self.last = last ?? HybridTimestamp(wall: 0, counter: 0, device: device)
    }

    /// A stamp for a change made here now: later than every stamp made or seen before, and the
    /// physical time when that is later still.
    package mutating func tick(physical: Int64) -> HybridTimestamp {
        let stamp: HybridTimestamp
        if physical > last.wall {
            stamp = HybridTimestamp(wall: physical, counter: 0, device: device)
        } else if last.counter < HybridTimestamp.maxCounter {
            stamp = HybridTimestamp(wall: last.wall, counter: last.counter + 1, device: device)
        } else {
            // Out of counters within one millisecond: borrow the next millisecond.
            stamp = HybridTimestamp(wall: last.wall + 1, counter: 0, device: device)
        }
        last = stamp
        return stamp
    }

    /// Takes in a stamp from another device, so every later local stamp sorts after it. Refused
    /// (and nothing changes) when the stamp is further ahead of this device's physical clock than
    /// `maxAhead` milliseconds: a peer whose clock runs ahead would otherwise drag every device's
    /// stamps into the future with it.
    package mutating func observe(_ remote: HybridTimestamp, physical: Int64, maxAhead: Int64) throws(ClockSkew) {
        if remote.wall - physical > maxAhead {
            throw ClockSkew(offsetMilliseconds: remote.wall - physical, limitMilliseconds: maxAhead)
        }
        if remote.wall > last.wall || (remote.wall == last.wall && remote.counter > last.counter) {
            last = HybridTimestamp(wall: remote.wall, counter: remote.counter, device: device)
        }
    }

    /// Forgets a wall time that came from a wrong physical clock, back to `floor` (the latest
    /// stamp that left this device or came to it): only for stamps that never left this device
    /// (its changes waiting while the hub refused its clock).
    package mutating func reset(to floor: HybridTimestamp) {
        last = HybridTimestamp(wall: floor.wall, counter: floor.counter, device: device)
    }
}

/// Two clocks further apart than the sync allows: which way and by how much.
package struct ClockSkew: Error, Hashable, Sendable {
    /// Positive: the other side runs ahead of this one.
    package let offsetMilliseconds: Int64
    package let limitMilliseconds: Int64

    package init(offsetMilliseconds: Int64, limitMilliseconds: Int64) {
        self.offsetMilliseconds = offsetMilliseconds
        self.limitMilliseconds = limitMilliseconds
    }
}
