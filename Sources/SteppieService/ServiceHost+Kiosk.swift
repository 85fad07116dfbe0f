import Foundation
import SteppieChildMode
import SteppieCore
import SteppieFeedback
import SteppieFiles
import SteppieInput
import SteppieStore

/// The kiosk pages' side of the service: screens published for the HTTP threads, taps run here.
extension ServiceHost {
    // MARK: Kiosk pages

    /// Publishes every child's screen whose content changed, for the pages' event streams.
    func publishScreens() {
        guard httpConfig != nil else { return }
        let now = clock.now()
        for (id, runtime) in runtimes {
            // "Switch child" only when a guardian allowed it and the picker has someone else to show.
            var screen = KioskScreen.make(state: runtime.state, child: runtime.child, now: now, version: screenVersion + 1,
                                          fallbackLocale: speechLocale, picture: childPictures[id],
                                          siblingSwitch: siblingsMaySwitch && runtimes.count > 1,
                                          text: httpConfig?.text ?? { key, _, _ in key })
            if let old = published[id], old.sameContent(as: screen) { continue }
            screenVersion += 1
            screen.version = screenVersion
            published[id] = screen
            board.publish(screen)
        }
        for id in published.keys where runtimes[id] == nil {
            published[id] = nil
            board.remove(childId: id.lowercased)
        }
    }

    /// A tap on a child's page: the same press as a key on a screen. A tap made on a screen that
    /// has changed since (its version is older) is refused with the screen now, never applied to
    /// a card the child did not see.
    func kioskPress(child: String, op: KioskRoutes.Tap, version: Int?) -> (status: Int, body: String) {
        guard let id = UUID(uuidString: child), let runtime = runtimes[id] else { return (404, "{\"error\":\"no such child\"}") }
        // `published` is current here: every loop turn ends with `publishScreens`, and taps are
        // run first in the next turn, before anything else can change a runtime.
        if let version, let current = published[id], version < current.version {
            return (409, current.json(now: clock.now()))
        }
        switch op {
        case .done: runtime.done()
        case .undo: runtime.undo()
        case .next: runtime.next()
        }
        // The page shows "not saved" from the screen's notice; whoever looks after the device
        // reads it here (the fault logged just before says why).
        if KioskScreen.notice(runtime.state.notice) != nil { log(.tapNotSaved(child: runtime.child.displayName, action: op.rawValue)) }
        publishScreens()
        return (200, published[id]?.json(now: clock.now()) ?? "{}")
    }
}
