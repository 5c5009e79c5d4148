import ArgumentParser
import LowbandAppEvents
import LowbandShaper

/// `--bound NAME=DURATION`, as the commands that judge an app's events take it (`lowband proxy
/// --record`, `lowband explore --exec`): the profile's settle and liveness bounds, each
/// overridable, read by one parser.
struct BoundsOption: ParsableArguments {
    @Option(help: "Override a promise's bound for judging your app's events, NAME=DURATION (settle, liveness; repeatable); with lowband proxy --record or lowband explore --exec.")
    var bound: [String] = []

    /// The bounds of `profile` (nil: the app allowance alone) with every `--bound` applied.
    ///
    /// - Throws: `EventBounds`' error naming the override it cannot read.
    func bounds(for profile: NetworkProfile?) throws -> EventBounds {
        var bounds = profile.map { EventBounds(profile: $0) } ?? EventBounds(settle: EventBounds.appAllowance, liveness: EventBounds.appAllowance)
        for text in bound {
            try bounds.apply(text)
        }
        return bounds
    }
}
