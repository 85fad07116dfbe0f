// `backup create|verify|restore` (issue 6).
extension CommandTree {
    static let backupArea: [CommandSpec] = []
}

extension Steppie {
    static let backupHandlers: [String: Handler] = [:]
}
