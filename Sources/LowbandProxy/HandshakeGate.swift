import NIOCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Makes a listening socket drop incoming TCP handshakes, as a dead radio link loses SYNs.
///
/// On Linux a classic BPF socket filter that accepts nothing is attached to the listener: the
/// kernel runs a listener's filter on every SYN before answering it, so while the gate is shut a
/// client's `connect()` gets no SYN-ACK, retransmits its SYN (after 1 s, 3 s, 7 s, … on Linux)
/// and either times out or completes with the first retransmission after the gate opens. The
/// listening socket and the connections already accepted are not touched. Elsewhere the gate
/// does nothing (connections are accepted and wait for the link, as before).
enum HandshakeGate {
    /// Whether this platform can drop handshakes.
    static var isSupported: Bool {
        #if os(Linux)
            true
        #else
            false
        #endif
    }

    /// Shuts (drop every SYN) or opens the gate of a listening channel; false if the socket
    /// refused. Call on the channel's event loop.
    static func set(_ shut: Bool, on channel: any Channel) -> Bool {
        #if os(Linux)
            guard shut else {
                clear(channel)
                return true
            }
            guard let provider = channel as? any SocketOptionProvider else { return false }
            // One instruction, `ret #0`: keep zero bytes of the packet, i.e. drop it.
            var instruction = Instruction(code: 0x06, jumpTrue: 0, jumpFalse: 0, value: 0)
            var succeeded = false
            withUnsafeMutablePointer(to: &instruction) { pointer in
                let program = Program(length: 1, instructions: UInt(bitPattern: pointer))
                // On the channel's loop the option is set, and the future completed, before
                // this returns, while `pointer` is valid.
                provider.unsafeSetSocketOption(level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(SO_ATTACH_FILTER), value: program)
                    .assumeIsolated()
                    .whenSuccess { succeeded = true }
            }
            return succeeded
        #else
            return false
        #endif
    }

    /// Removes a filter a socket may have inherited from its listener (Linux copies a
    /// listener's filter into the connections it creates); no filter is not an error.
    static func clear(_ channel: any Channel) {
        #if os(Linux)
            guard let provider = channel as? any SocketOptionProvider else { return }
            _ = provider.unsafeSetSocketOption(level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(SO_DETACH_FILTER), value: CInt(0))
        #endif
    }

    /// `struct sock_filter` of <linux/filter.h>.
    private struct Instruction: Sendable {
        var code: UInt16
        var jumpTrue: UInt8
        var jumpFalse: UInt8
        var value: UInt32
    }

    /// `struct sock_fprog` of <linux/filter.h>; the pointer kept as its bit pattern so the value
    /// is `Sendable`, as `unsafeSetSocketOption` requires.
    private struct Program: Sendable {
        var length: UInt16
        var instructions: UInt
    }
}
