import CEvdev
import Testing
@testable import SteppieInput

@Suite struct DebouncerTests {
    let t0 = ContinuousClock.now

    func at(_ ms: Int) -> ContinuousClock.Instant { t0 + .milliseconds(ms) }

    /// Which of the presses (action, milliseconds after t0) count, in order.
    func counted(_ d: inout Debouncer, _ presses: [(ButtonAction, Int)]) -> [Bool] {
        presses.map { d.accept($0.0, at: at($0.1)) }
    }

    @Test func aSecondPressInsideTheWindowCountsOnceAndOneAfterItCountsAgain() {
        var d = Debouncer()
        #expect(d.window == .milliseconds(300))
        let steps: [(ButtonAction, Int)] = [(.done, 0), (.done, 0), (.done, 120), (.done, 299), (.done, 300),
                                            (.done, 450), (.done, 601)]
        #expect(counted(&d, steps) == [true, false, false, false, true, false, true])
    }

    @Test func hammeringCountsOncePerWindowNotNever() {
        var d = Debouncer(window: .milliseconds(300))
        let steps = stride(from: 0, to: 1000, by: 100).map { (ButtonAction.done, $0) }
        #expect(counted(&d, steps) == [true, false, false, true, false, false, true, false, false, true])
    }

    @Test func actionsAreDebouncedApart() {
        var d = Debouncer()
        #expect(counted(&d, [(.done, 0), (.undo, 50), (.next, 60), (.undo, 100), (.done, 200)])
                == [true, true, true, false, false])
    }

    @Test func aZeroWindowCountsEveryPress() {
        var d = Debouncer(window: .zero)
        #expect(counted(&d, [(.done, 0), (.done, 0), (.done, 1)]) == [true, true, true])
    }
}

@Suite struct InputEventDecoderTests {
    @Test func aRecordIsTheKernelsStructInputEvent() {
        #if arch(x86_64) || arch(arm64)
        #expect(InputEventDecoder.recordSize == 24)
        #endif
        #expect(Records.down(KEY_ENTER).count == 2 * InputEventDecoder.recordSize)
    }

    @Test func aHalfRecordWaitsForItsRest() {
        var decoder = InputEventDecoder()
        let bytes = Records.event(type: EV_KEY, code: KEY_ENTER, value: 1) + Records.syn()
        #expect(decoder.feed(bytes.prefix(10)).isEmpty)
        #expect(decoder.pending.count == 10)
        let events = decoder.feed(bytes.dropFirst(10).prefix(20))
        #expect(events == [InputEvent(type: UInt16(EV_KEY), code: UInt16(KEY_ENTER), value: 1)])
        #expect(decoder.pending.count == 6)
        #expect(decoder.feed(bytes.dropFirst(30)) == [InputEvent(type: UInt16(EV_SYN), code: 0, value: 0)])
        #expect(decoder.pending.isEmpty)
    }

    @Test func onlyKeyDownIsAPress() {
        #expect(InputEvent(type: UInt16(EV_KEY), code: 28, value: 1).isKeyPress)
        #expect(!InputEvent(type: UInt16(EV_KEY), code: 28, value: 0).isKeyPress)
        #expect(!InputEvent(type: UInt16(EV_KEY), code: 28, value: 2).isKeyPress)
        #expect(!InputEvent(type: UInt16(EV_MSC), code: 28, value: 1).isKeyPress)
    }
}
