import CEvdev
import Foundation
import SteppieFiles
#if canImport(Glibc)
import Glibc
#endif

/// A Linux evdev force-feedback device (FF_RUMBLE), e.g. `/dev/input/event5` of a game pad.
public final class RumbleDevice: HapticOutput, @unchecked Sendable {
    public let path: String
    private let lock = NSLock()
    // Guarded by `lock`.
    private var fd: Int32
    private var effectIds: [Int32] = []

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
        lock.lock()
        defer { lock.unlock() }
        return lost || FileIdentity.isGone(fd, path: path)
    }
    // Guarded by `lock`: a play failed with ENODEV.
    private var lost = false

    /// Plays each pulse as one rumble (strong motor ← intensity, weak motor ← sharpness × intensity).
    public func play(_ pattern: HapticPattern, event: FeedbackEvent) throws {
        lock.lock()
        defer { lock.unlock() }
        // One uploaded effect per pulse (the kernel schedules them by their replay delay).
        for old in effectIds { _ = cevdev_erase(fd, old) }
        effectIds = []
        for pulse in pattern.pulses {
            let strong = UInt16(min(65535, pulse.intensity * 65535))
            let weak = UInt16(min(65535, pulse.intensity * pulse.sharpness * 65535))
            let id = cevdev_upload_rumble(fd, -1, strong, weak, UInt16(pulse.start * 1000),
                                          UInt16(max(1, pulse.duration * 1000)))
            try check(id, "EVIOCSFF")
            effectIds.append(id)
            try check(cevdev_play(fd, id, 1), "write EV_FF")
        }
    }

    private func check(_ code: Int32, _ call: String) throws {
        guard code >= 0 else {
            if code == -ENODEV { lost = true }
            throw FeedbackError.hapticDevice(path: path, reason: "\(call): \(String(cString: strerror(-code)))")
        }
    }
}
