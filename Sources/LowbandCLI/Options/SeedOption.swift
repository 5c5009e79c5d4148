import ArgumentParser

/// `--seed`, as every command that makes seeded decisions takes it: one name, one default (1),
/// one meaning — the same seed gives the same decisions (the data, the network's draws, the
/// engines', the chaos). `lowband client` alone draws one when absent (a real device's client
/// ids must not collide), so it keeps its own.
struct SeedOption: ParsableArguments {
    @Option(help: "The seed of every random decision this command makes (its data, the network's and the engines' draws): the same seed gives the same decisions (default 1).")
    var seed: UInt64 = 1
}
