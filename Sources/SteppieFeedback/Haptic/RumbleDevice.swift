import CEvdev
import Foundation
import SteppieFiles
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A Linux evdev force-feedback device (FF_RUMBLE), e.g. `/dev/input/event5` of a game pad.
public final class RumbleDevice: HapticOutput, Sendable {
    public let path: String
    /// Open from `init` to `deinit`.
    private let fd: Int32

    private struct State {
        /// The effects the last play uploaded (erased by the next).
        var effectIds: [Int32] = []
        /// A play failed with ENODEV.
        var lost = false
    }

    /// One play at a time: its uploads, plays and erases are one sequence on the device.
    private let state = Mutex(State())

    /// Opens `path` read-write and checks that it supports FF_RUMBLE (`FeedbackError.noRumble` if not).
    public init(path: String) throws {
        let fd = open(path, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else {
            throw FeedbackError.hapticDevice(path: path, reason: String(cString: strerror(errno)))
        }
        let has = cevdev_has_rumble(fd)
        guard has == 1 else {
            close(fd)
            if has == 0 || has == -ENOTTY || has == -EINVAL { throw FeedbackError.noRumble(path: path) }
            throw FeedbackError.hapticDevice(path: path, reason: String(cString: strerror(-has)))
        }
        self.path = path
        self.fd = fd
    }

    deinit { if fd >= 0 { close(fd) } }

    /// True when the device was unplugged (its node deleted, or `path` names another node now) or a
    /// play found it gone (ENODEV): its owner drops it and opens `path` again when it is back.
    public var isGone: Bool {
        state.withLock { $0.lost } || FileIdentity.isGone(fd, path: path)
    }

    /// Plays each pulse as one rumble (strong motor ← intensity, weak motor ← sharpness × intensity).
    public func play(_ pattern: HapticPattern, event: FeedbackEvent) throws {
        try state.withLock { s in try play(pattern, state: &s) }
    }

    private func play(_ pattern: HapticPattern, state s: inout State) throws {
        // One uploaded effect per pulse (the kernel schedules them by their replay delay).
        for old in s.effectIds { _ = cevdev_erase(fd, old) }
        s.effectIds = []
        for pulse in pattern.pulses {
            let strong = UInt16(min(65535, pulse.intensity * 65535))
            let weak = UInt16(min(65535, pulse.intensity * pulse.sharpness * 65535))
            let id = cevdev_upload_rumble(fd, -1, strong, weak, UInt16(pulse.start * 1000),
                                          UInt16(max(1, pulse.duration * 1000)))
            try check(id, "EVIOCSFF", &s)
            s.effectIds.append(id)
            try check(cevdev_play(fd, id, 1), "write EV_FF", &s)
        }
    }

    private func check(_ code: Int32, _ call: String, _ s: inout State) throws {
        guard code >= 0 else {
            if code == -ENODEV { s.lost = true }
            throw FeedbackError.hapticDevice(path: path, reason: "\(call): \(String(cString: strerror(-code)))")
        }
    }
}
