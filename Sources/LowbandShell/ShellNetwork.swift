/// The addresses inside a shell, as slirp4netns and QEMU's user network lay them out.
package enum ShellNetwork {
    /// The namespace's network, 10.0.2.0/24.
    package static let network = "10.0.2.0"
    package static let netmask = "255.255.255.0"
    /// The namespace's own address on its TAP.
    package static let address = "10.0.2.100"
    /// The gateway, which is also the host: connections to it reach the host's loopback
    /// (`LOWBAND_HOST`).
    package static let host = "10.0.2.2"
    /// ``host`` as a number in host byte order, as ``FrameHeaders`` reads addresses.
    static let hostAddress: UInt32 = 0x0A00_0202
    /// slirp's DNS forwarder, which asks the host's resolvers.
    package static let nameserver = "10.0.2.3"
    /// The TAP device's name inside.
    package static let tapName = "tap0"
    /// An Ethernet header: the part of a TAP frame that is not the IP packet.
    package static let ethernetHeader = 14
}
