import SteppieChildMode
import CTerminal
import Foundation
import SteppieCore

/// The event loop of `steppie child`: keys or a key script in, the runtime polled, the screen
/// redrawn on change, on resize and each second of a countdown.
final class ChildLoop {
    private let runtime: any ChildModeDriver
    private let screen: ChildScreen
    private let keys: KeyScriptReader?
    private let interactive: Bool
    private let c: Context
    private let hasPin: Bool
    private var overlay: ChildScreen.Overlay = .none
    private var pin = ""
    private var hold = HoldGesture()
    private var lastFrame: [String] = []
    private var lastSize = (rows: 0, cols: 0)
    private var pending: [KeyAction] = []
    private var waitUntil: Date?
    private let stop = StopFlag()
    private var signalSources: [any DispatchSourceSignal] = []

    init(runtime: any ChildModeDriver, screen: ChildScreen, keys: KeyScriptReader?, interactive: Bool, context: Context, hasPin: Bool) {
        self.runtime = runtime
        self.screen = screen
        self.keys = keys
        self.interactive = interactive
        self.c = context
        self.hasPin = hasPin
    }

    func run() throws -> Int32 {
        installSignalHandlers()
        _ = cterminal_install_crash_guard(interactive ? STDOUT_FILENO : -1, "steppie: " + c.text("cli.child.crashed") + "\n")
        if interactive {
            _ = cterminal_enter_raw(STDIN_FILENO)
            c.console.write("\u{1B}[?1049h\u{1B}[?25l")
        }
        defer {
            if interactive {
                c.console.write("\u{1B}[?25h\u{1B}[?1049l")
                cterminal_restore(STDIN_FILENO)
            }
        }
        runtime.start()
        while !stop.isSet && !runtime.detached {
            runtime.poll()
            if interactive { draw() }
            if try !step() { break }
        }
        return 0
    }

    /// Waits for input (at most 100 ms) and handles it; false when child mode should end.
    private func step() throws -> Bool {
        if let keys {
            if let until = waitUntil {
                if c.now < until {
                    _ = sleepOrRead(fd: nil)
                    return true
                }
                waitUntil = nil
            }
            if pending.isEmpty {
                if keys.finished { return false }
                if sleepOrRead(fd: keys.fileDescriptor) { pending += try keys.readAvailable() }
            }
            while !pending.isEmpty {
                let action = pending.removeFirst()
                switch action {
                case .done: runtime.done()
                case .undo:
                    runtime.undo()
                    if runtime.state.notice == .undoRefused, c.invocation.value("--events") != "-" {
                        c.console.print(screen.text("child.undo.refused"))
                    }
                case .next: runtime.next()
                case .quit: return false
                case .wait(let seconds):
                    waitUntil = c.now.addingTimeInterval(seconds)
                    return true
                }
            }
            return true
        }
        guard interactive else { return false }
        if sleepOrRead(fd: STDIN_FILENO) {
            var bytes = [UInt8](repeating: 0, count: 64)
            let n = read(STDIN_FILENO, &bytes, bytes.count)
            if n <= 0 { return true }
            for b in bytes[0..<n] { if !key(b) { return false } }
        }
        return true
    }

    /// Polls `fd` (or just sleeps) for up to 100 ms; true when `fd` is readable.
    private func sleepOrRead(fd: Int32?) -> Bool {
        var p = pollfd(fd: fd ?? -1, events: Int16(POLLIN), revents: 0)
        let r = poll(&p, fd == nil ? 0 : 1, 100)
        return r > 0 && (p.revents & Int16(POLLIN | POLLHUP)) != 0
    }

    /// One key in interactive mode; false when the guardian chose to leave.
    private func key(_ b: UInt8) -> Bool {
        let now = c.now
        if case .gate(let digits, _) = overlay {
            switch b {
            case 27: overlay = .none; pin = ""                                   // Esc: back
            case UInt8(ascii: "q"), UInt8(ascii: "Q"):
                if digits == nil { return false }                                // PIN accepted or none set
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                guard digits != nil else { break }
                pin.append(Character(Unicode.Scalar(b)))
                if pin.count == 4 {
                    let ok = ChildFeedback.verifyPin(pin, c)
                    pin = ""
                    overlay = ok ? .gate(pinDigits: nil, message: nil) : .gate(pinDigits: 0, message: screen.text("guardian.pin.wrong"))
                } else {
                    overlay = .gate(pinDigits: pin.count, message: nil)
                }
            case 127, 8:
                if !pin.isEmpty { pin.removeLast(); overlay = .gate(pinDigits: pin.count, message: nil) }
            default: break
            }
            return true
        }
        switch b {
        case UInt8(ascii: "g"), UInt8(ascii: "G"):
            if hold.key(at: now) { overlay = .gate(pinDigits: hasPin ? 0 : nil, message: nil) }
            return true
        case UInt8(ascii: " "), 13, 10: runtime.done()
        case UInt8(ascii: "u"), UInt8(ascii: "U"): runtime.undo()
        case UInt8(ascii: "n"), UInt8(ascii: "N"): runtime.next()
        default: break
        }
        hold.reset()
        return true
    }

    private func draw() {
        var rows: Int32 = 24, cols: Int32 = 80
        if cterminal_window_size(STDOUT_FILENO, &rows, &cols) != 0 { rows = 24; cols = 80 }
        let frame = screen.render(runtime.state, child: runtime.child, now: c.now, columns: Int(cols), rows: Int(rows), overlay: overlay)
        let resized = lastSize.rows != Int(rows) || lastSize.cols != Int(cols)
        guard frame != lastFrame || resized else { return }
        lastFrame = frame
        lastSize = (Int(rows), Int(cols))
        c.console.write("\u{1B}[H" + frame.map { $0 + "\u{1B}[K" }.joined(separator: "\r\n") + "\u{1B}[J")
    }

    /// Every catchable signal that would end the process ends child mode through the loop instead,
    /// so the terminal is restored (SIGPIPE is ignored for the whole process: a closed pipe is a
    /// write error, see `Descriptor.ignoreBrokenPipe`).
    static let stopSignals = [SIGTERM, SIGHUP, SIGINT, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM]

    private func installSignalHandlers() {
        signalSources = stop.install(on: Self.stopSignals)
    }
}
