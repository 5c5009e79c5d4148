import Testing

@testable import LowbandScenarios

/// A post's completion and the client's sighting of its message are matched in either order
/// (the race `lowband run --profile perfect` lost on a third of its pushes).
@Suite struct PostSightingsTests {
    @Test func aSightingBeforeItsCompletionIsMatchedWhenTheCompletionComes() {
        var sightings = PostSightings<Int64, String>()
        sightings.willPost()
        sightings.sawUnposted(91, "visible at 0.4 ms")
        #expect(sightings.didPost(91) == "visible at 0.4 ms")
        sightings.willPost()
        #expect(sightings.didPost(92) == nil, "nothing seen yet: the scenario keeps the post and matches the sighting later")
    }

    @Test func withNothingInFlightNoSightingIsKept() {
        var sightings = PostSightings<Int64, String>()
        sightings.sawUnposted(10, "a history row")
        sightings.willPost()
        #expect(sightings.didPost(10) == nil, "seen before the post was sent: not its sighting")
    }

    @Test func sightingsOfOtherRowsGoWhenTheLastPostCompletes() {
        var sightings = PostSightings<Int64, Int>()
        sightings.willPost()
        sightings.willPost()
        sightings.sawUnposted(1, 1)
        sightings.sawUnposted(2, 2)
        #expect(sightings.didPost(nil) == nil, "a failed post")
        #expect(sightings.didPost(3) == nil)
        sightings.willPost()
        #expect(sightings.didPost(2) == nil, "forgotten once no post was in flight")
    }

    @Test func atMostTheLimitIsKept() {
        var sightings = PostSightings<Int64, Int>(limit: 2)
        sightings.willPost()
        for id in 1 ... 5 as ClosedRange<Int64> { sightings.sawUnposted(id, Int(id)) }
        sightings.willPost()
        #expect(sightings.didPost(5) == nil, "past the limit")
        #expect(sightings.didPost(2) == 2)
    }
}
