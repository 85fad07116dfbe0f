import CEvdev
import SteppieFiles
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A Linux input device (or, for tests and replays, a FIFO or regular file of `struct input_event`
/// records) read as button presses. Built for one poll()-based loop on one thread: poll
/// `fileDescriptor` for input, call `read(now:)` when it is readable (or reports an error), and
/// call `reopenIfDue(now:)` on every turn, waking no later than `nextCheck`. Not `Sendable`: one owner.
public final class ButtonDevice {
    /// How often a lost device is tried again, and an open one checked for a removed node.
    public static let retryInterval = Duration.milliseconds(500)
    /// At most this many bytes per `read(now:)`, so a flooding writer cannot starve the loop.
    static let readLimit = 64 * 1024

    public let spec: ButtonSpec
    public private(set) var status: ButtonStatus
    /// When `reopenIfDue(now:)` next has something to do (use it for the poll timeout).
    public private(set) var nextCheck: ContinuousClock.Instant
    /// Why the last attempt to reopen a lost device failed (nil after a success), for logs.
    public private(set) var lastReopenError: ButtonDeviceError?

    private var handle: Handle?
    private var decoder = InputEventDecoder()
    private var debouncer: Debouncer
    private var notices: [ButtonNotice] = []

    /// The open descriptor to poll for input; nil while the device is lost.
    public var fileDescriptor: Int32? { handle?.fd }

    /// The debounce window; the caller changes it when the child's setting changes.
    public var debounceWindow: Duration {
        get { debouncer.window }
        set { debouncer.window = newValue }
    }

    /// Opens `spec.path` (O_RDONLY | O_NONBLOCK | O_CLOEXEC) and grabs it when the spec says so.
    /// With `waitIfMissing`, a device not plugged in yet starts lost and is picked up when it
    /// appears; with `keepTrying` (a button stored for the device), so does a device that cannot
    /// be opened for any other reason (no permission yet, held by another program), its reason in
    /// `lastReopenError`. Otherwise a failure throws.
    public init(spec: ButtonSpec, debounce: Duration = Debouncer.defaultWindow,
                now: ContinuousClock.Instant, waitIfMissing: Bool = false, keepTrying: Bool = false) throws(ButtonDeviceError) {
        self.spec = spec
        debouncer = Debouncer(window: debounce)
        nextCheck = now + Self.retryInterval
        do throws(ButtonDeviceError) {
            handle = try Self.openDevice(spec)
            status = .open
        } catch {
            var missing = false
            if case .missing = error { missing = true }
            guard keepTrying || (missing && waitIfMissing) else { throw error }
            status = .lost(.removed)
            lastReopenError = error
        }
    }

    /// True while the device is open and read.
    public var isPresent: Bool { handle != nil }

    /// What the open descriptor reads from, nil while lost: two paths of one device (a symlink in
    /// `/dev/input/by-id/` and the `eventN` node, or a second node with the same numbers) give
    /// the same identity, so their owner can count each press once.
    public var identity: DeviceIdentity? { handle.map(\.identity) }

    deinit {
        // Closing also ends a grab.
        if let handle { Glibc.close(handle.fd) }
    }

    /// Reads every whole record available now and returns the presses that count: `EV_KEY` with
    /// value 1 whose key the map names, outside the debounce window. A device that is gone
    /// (ENODEV, or the end of a FIFO or device) is closed and reported through `takeNotices()`.
    public func read(now: ContinuousClock.Instant) -> [ButtonPress] {
        guard let handle else { return [] }
        var presses: [ButtonPress] = []
        var buffer = [UInt8](repeating: 0, count: InputEventDecoder.recordSize * 64)
        var total = 0
        while total < Self.readLimit {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(handle.fd, $0.baseAddress, $0.count) }
            if n > 0 {
                total += n
                for event in decoder.feed(buffer[0..<n]) {
                    if let press = press(for: event, at: now) { presses.append(press) }
                }
                continue
            }
            if n == 0 {
                // A regular file just has nothing more yet; a FIFO's writer or the device has gone.
                if handle.kind != .regular { lose(.unplugged, now: now) }
                break
            }
            let e = errno
            if e == EINTR { continue }
            if e == EAGAIN || e == EWOULDBLOCK { break }
            lose(e == ENODEV ? .unplugged : .readFailed(errno: e, reason: Self.text(of: e)), now: now)
            break
        }
        return presses
    }

    /// When due (every `retryInterval`): checks that an open device's node is still the one
    /// opened, and tries to reopen a lost one. Returns true when it reopened the device, so
    /// `fileDescriptor` changed. Cheap to call on every turn of the loop.
    @discardableResult
    public func reopenIfDue(now: ContinuousClock.Instant) -> Bool {
        guard now >= nextCheck else { return false }
        nextCheck = now + Self.retryInterval
        if let handle {
            guard Self.isGone(handle, path: spec.path) else { return false }
            lose(.removed, now: now)
            // The node may already be back (re-created): that is this turn's try.
        }
        do throws(ButtonDeviceError) {
            handle = try Self.openDevice(spec)
        } catch {
            lastReopenError = error
            return false
        }
        status = .open
        lastReopenError = nil
        notices.append(.back(path: spec.path))
        return true
    }

    /// The lost / back notices since the last call, oldest first.
    public func takeNotices() -> [ButtonNotice] {
        defer { notices.removeAll() }
        return notices
    }

    private func press(for event: InputEvent, at now: ContinuousClock.Instant) -> ButtonPress? {
        guard event.isKeyPress, let action = spec.map.action(for: event.code),
              debouncer.accept(action, at: now) else { return nil }
        return ButtonPress(action: action, keyCode: event.code, at: now)
    }

    private func lose(_ reason: ButtonLossReason, now: ContinuousClock.Instant) {
        if let handle { Glibc.close(handle.fd) }
        handle = nil
        decoder.reset()
        status = .lost(reason)
        nextCheck = now + Self.retryInterval
        notices.append(.lost(path: spec.path, reason: reason))
    }
}

/// What a button reads from: a device by its numbers (every node of it is the same device and
/// each open descriptor gets every event), or a FIFO or file by its inode.
public enum DeviceIdentity: Hashable, Sendable {
    case node(rdev: UInt64)
    case file(device: UInt64, inode: UInt64)
}

extension ButtonDevice {
    /// An open descriptor with what it was when opened.
    struct Handle {
        let fd: Int32
        let kind: FileKind
        let device: UInt64
        let inode: UInt64
        /// The device numbers of a device node (0 for a FIFO or a file).
        let rdev: UInt64

        var identity: DeviceIdentity {
            kind == .characterDevice ? .node(rdev: rdev) : .file(device: device, inode: inode)
        }
    }

    static let readableKinds: Set<FileKind> = [.characterDevice, .fifo, .regular]

    /// Opens, checks and (when asked) grabs the device; a half-open descriptor is closed before throwing.
    static func openDevice(_ spec: ButtonSpec) throws(ButtonDeviceError) -> Handle {
        let path = spec.path
        guard let kind = OwnerOnly.kind(of: path) else { throw .missing(path: path) }
        guard readableKinds.contains(kind) else { throw .notAnInputDevice(path: path, kind: kind) }
        let fd = Glibc.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        try check(fd, "open", path: path)
        do throws(ButtonDeviceError) {
            // What was opened, not what the path named a moment ago.
            var st = stat()
            try check(fstat(fd, &st), "fstat", path: path)
            let opened = kindOf(mode: st.st_mode)
            guard readableKinds.contains(opened) else { throw .notAnInputDevice(path: path, kind: opened) }
            if opened == .characterDevice {
                let version = cevdev_version(fd)
                if version == -ENOTTY || version == -EINVAL { throw .notAnInputDevice(path: path, kind: opened) }
                try check(version, "EVIOCGVERSION", path: path, negativeErrno: true)
                if spec.grab {
                    let grabbed = cevdev_grab(fd, 1)
                    if grabbed < 0 { throw .grabFailed(path: path, errno: -grabbed, reason: text(of: -grabbed)) }
                }
            }
            return Handle(fd: fd, kind: opened, device: UInt64(st.st_dev), inode: UInt64(st.st_ino), rdev: UInt64(st.st_rdev))
        } catch {
            Glibc.close(fd)
            throw error
        }
    }

    /// True when the opened node was deleted, or the path now names something else.
    static func isGone(_ handle: Handle, path: String) -> Bool {
        FileIdentity.isGone(handle.fd, path: path)
    }

    /// The one checking helper for system calls on the device: a negative result becomes a typed
    /// error (from `errno`, or from the result itself when it is `-errno`).
    static func check(_ result: Int32, _ operation: String, path: String,
                      negativeErrno: Bool = false) throws(ButtonDeviceError) {
        guard result < 0 else { return }
        let e = negativeErrno ? -result : errno
        switch e {
        case ENOENT, ENODEV, ENXIO: throw .missing(path: path)
        case EACCES, EPERM: throw .permissionDenied(path: path)
        default: throw .system(path: path, operation: operation, errno: e, reason: text(of: e))
        }
    }

    static func text(of e: Int32) -> String { String(cString: strerror(e)) }

    static func kindOf(mode: mode_t) -> FileKind {
        switch mode & S_IFMT {
        case S_IFREG: .regular
        case S_IFDIR: .directory
        case S_IFIFO: .fifo
        case S_IFCHR: .characterDevice
        case S_IFBLK: .blockDevice
        case S_IFSOCK: .socket
        default: .other
        }
    }
}
