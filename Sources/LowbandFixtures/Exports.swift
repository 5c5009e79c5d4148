// Fixture users draw their own numbers from the same seeded generator.
@_exported public import LowbandDeterminism
