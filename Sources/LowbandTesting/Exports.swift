// The one umbrella of Lowband (issue 23: no other target re-exports a whole module): what a
// test of a world touches, in memory or on sockets: the server, the engines, the network, the clock, the
// profiles, the shaping proxy, the toxics and faults (LowbandProxyCore) and the frame-link seam.
@_exported public import LowbandClient
@_exported public import LowbandDeterminism
@_exported public import LowbandFixtures
@_exported public import LowbandProxy
@_exported public import LowbandProxyCore
@_exported public import LowbandServer
@_exported public import LowbandShaper
@_exported public import LowbandProfiles
@_exported public import LowbandSimulation
@_exported public import LowbandTransport
@_exported public import LowbandWire
