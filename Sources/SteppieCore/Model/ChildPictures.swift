import Foundation

/// The pictures children are drawn with on the kiosk's picker: the one a guardian chose, else a
/// builtin icon picked in a fixed order so that siblings differ (docs/kiosk.md).
public enum ChildPictures {
    /// The builtin icons a child is given before a guardian chooses, in the order they are given.
    public static let defaults = ["cat", "dog", "sun", "moon", "star", "heart", "ball", "plant", "bicycle", "music", "puzzle", "smile"]

    /// Each child's picture, for `children` in their usual order (creation): a chosen picture is
    /// kept; the others get the first default no sibling has yet (chosen or given), so two
    /// children on one device never share a default. Deterministic: the same list gives the same pictures.
    public static func resolve(_ children: [Child]) -> [UUID: IconRef] {
        var taken = Set<String>()
        for child in children { if case .builtin(let name)? = child.picture { taken.insert(name) } }
        var result: [UUID: IconRef] = [:]
        var next = 0
        for child in children {
            if let chosen = child.picture { result[child.id] = chosen; continue }
            var name = defaults[next % defaults.count]
            var tries = 0
            while taken.contains(name), tries < defaults.count {
                next += 1; tries += 1
                name = defaults[next % defaults.count]
            }
            next += 1
            taken.insert(name)
            result[child.id] = .builtin(name: name)
        }
        return result
    }
}
