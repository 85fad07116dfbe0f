/// A benchmark that cannot go on: what was wrong, said once at the top of the run's error output.
public struct BenchError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
