/// Why an open device stopped being read.
public enum ButtonLossReason: Equatable, Sendable {
    /// The device reported that it is gone (`ENODEV`) or its input ended (a FIFO's writer left).
    case unplugged
    /// The node was deleted or replaced by another file.
    case removed
    /// Reading failed otherwise.
    case readFailed(errno: Int32, reason: String)
}

/// Whether a device is being read.
public enum ButtonStatus: Equatable, Sendable {
    case open
    /// Closed; `reopenIfDue(now:)` tries again every `ButtonDevice.retryInterval`.
    case lost(ButtonLossReason)
}

/// A change the caller tells the guardian about (log line, status page), said from the catalogs.
public enum ButtonNotice: Equatable, Sendable {
    case lost(path: String, reason: ButtonLossReason)
    case back(path: String)

    /// The catalog key of the message (`Localization/*/buttons.json`).
    public var catalogKey: String {
        switch self {
        case .lost(_, .unplugged): "button.notice.unplugged"
        case .lost(_, .removed): "button.notice.removed"
        case .lost(_, .readFailed): "button.notice.readFailed"
        case .back: "button.notice.back"
        }
    }

    /// The message's placeholders.
    public var arguments: [String: String] {
        switch self {
        case .lost(let path, .readFailed(_, let reason)): ["path": path, "reason": reason]
        case .lost(let path, _), .back(let path): ["path": path]
        }
    }
}
