// `say`, `feedback preview|profiles|tune` (issue 3).
extension CommandTree {
    static let feedbackArea: [CommandSpec] = []
}

extension Steppie {
    static let feedbackHandlers: [String: Handler] = [:]
}
