// What a test of the virtual world touches: the server, the engines, the network, the clock
// and the profiles.
@_exported public import LowbandClient
@_exported public import LowbandDeterminism
@_exported public import LowbandFixtures
@_exported public import LowbandServer
@_exported public import LowbandShaper
@_exported public import LowbandSimulation
@_exported public import LowbandWire
