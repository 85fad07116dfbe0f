/// The state of one routine on one tracked day (StackDay's Entry State).
public enum EntryState: String, Hashable, Sendable, Codable {
    /// A completion exists for the day.
    case completed
    /// The day is the reference day (today) and is not completed yet.
    case pending
    /// A past tracked day without a completion.
    case missed
}
