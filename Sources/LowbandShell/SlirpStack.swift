import CLowbandSlirp
import Glibc

/// libslirp, the user-mode TCP/IP stack, as one loop drives it: frames in with ``input(_:)``,
/// frames out through ``output``, its sockets polled through ``fill(_:)`` and ``dispatch(_:failed:)``,
/// its timers fired by ``fireTimers(at:)``. Used on one thread only (libslirp is not thread-safe).
///
/// The network it serves is ``ShellNetwork``'s: the gateway 10.0.2.2 is the host, with its
/// loopback reachable (`disable_host_loopback` off), 10.0.2.3 forwards DNS to the host's
/// resolvers; IPv6 and DHCP are off (the namespace's address is set directly).
final class SlirpStack {
    /// Where slirp's frames to the namespace go.
    var output: ((UnsafeRawBufferPointer) -> Void)?
    /// Messages slirp gave about frames it found malformed.
    private(set) var guestErrors: [String] = []

    private struct Timer {
        var id: SlirpTimerId
        var argument: UnsafeMutableRawPointer?
        /// When it fires, ms on the monotonic clock; nil: not armed.
        var expiry: Int64?
    }

    private var slirp: OpaquePointer?
    private let callbacks: UnsafeMutablePointer<SlirpCb>
    private var timers: [Int: Timer] = [:]
    private var timerCount = 0
    /// The poll set being filled or dispatched, and where slirp's entries start in it.
    private var polled: [pollfd] = []
    private var firstSlirpEntry = 0
    private let clock = MonotonicClock()

    /// A stack with interfaces of `mtu` bytes.
    init(mtu: Int) throws(ShellError) {
        callbacks = .allocate(capacity: 1)
        callbacks.initialize(to: SlirpCb())
        callbacks.pointee.send_packet = { buffer, length, opaque in
            guard let buffer, let opaque else { return -1 }
            let stack = Unmanaged<SlirpStack>.fromOpaque(opaque).takeUnretainedValue()
            stack.output?(UnsafeRawBufferPointer(start: buffer, count: length))
            return length
        }
        callbacks.pointee.guest_error = { message, opaque in
            guard let message, let opaque else { return }
            let stack = Unmanaged<SlirpStack>.fromOpaque(opaque).takeUnretainedValue()
            if stack.guestErrors.count < 100 { stack.guestErrors.append(String(cString: message)) }
        }
        callbacks.pointee.clock_get_ns = { _ in MonotonicClock().nanoseconds() }
        callbacks.pointee.timer_new_opaque = { id, argument, opaque in
            guard let opaque else { return nil }
            let stack = Unmanaged<SlirpStack>.fromOpaque(opaque).takeUnretainedValue()
            stack.timerCount += 1
            stack.timers[stack.timerCount] = Timer(id: id, argument: argument, expiry: nil)
            return UnsafeMutableRawPointer(bitPattern: stack.timerCount)
        }
        callbacks.pointee.timer_free = { timer, opaque in
            guard let opaque else { return }
            let stack = Unmanaged<SlirpStack>.fromOpaque(opaque).takeUnretainedValue()
            stack.timers[Int(bitPattern: timer)] = nil
        }
        callbacks.pointee.timer_mod = { timer, expiry, opaque in
            guard let opaque else { return }
            let stack = Unmanaged<SlirpStack>.fromOpaque(opaque).takeUnretainedValue()
            stack.timers[Int(bitPattern: timer)]?.expiry = expiry
        }
        // The loop fills the poll set afresh before every poll, so registering and kicking
        // (another thread's way to wake the loop) have nothing to do here.
        callbacks.pointee.register_poll_fd = { _, _ in }
        callbacks.pointee.unregister_poll_fd = { _, _ in }
        callbacks.pointee.notify = { _ in }

        var config = SlirpConfig()
        config.version = 4
        config.restricted = 0
        config.in_enabled = true
        config.vnetwork.s_addr = inet_addr(ShellNetwork.network)
        config.vnetmask.s_addr = inet_addr(ShellNetwork.netmask)
        config.vhost.s_addr = inet_addr(ShellNetwork.host)
        config.vdhcp_start.s_addr = inet_addr("10.0.2.15")
        config.vnameserver.s_addr = inet_addr(ShellNetwork.nameserver)
        config.in6_enabled = false
        config.if_mtu = mtu
        config.if_mru = mtu
        config.disable_host_loopback = false
        config.enable_emu = false
        config.disable_dns = false
        config.disable_dhcp = true
        slirp = slirp_new(&config, callbacks, Unmanaged.passUnretained(self).toOpaque())
        if slirp == nil {
            callbacks.deallocate()
            throw ShellError(.system, "libslirp refused its configuration (slirp_new returned NULL)")
        }
    }

    deinit {
        if let slirp { slirp_cleanup(slirp) }
        callbacks.deallocate()
    }

    /// Hands slirp a frame from the namespace.
    func input(_ frame: [UInt8]) {
        frame.withUnsafeBufferPointer { slirp_input(slirp, $0.baseAddress, Int32($0.count)) }
    }

    /// Appends slirp's sockets to `set`; returns how long slirp may sleep, in ms (nil: as long as it likes).
    func fill(_ set: inout [pollfd]) -> Int64? {
        polled = set
        firstSlirpEntry = set.count
        var timeout = UInt32.max
        slirp_pollfds_fill(slirp, &timeout, { fd, events, opaque in
            guard let opaque else { return -1 }
            let stack = Unmanaged<SlirpStack>.fromOpaque(opaque).takeUnretainedValue()
            stack.polled.append(pollfd(fd: fd, events: SlirpStack.pollEvents(events), revents: 0))
            return Int32(stack.polled.count - 1 - stack.firstSlirpEntry)
        }, Unmanaged.passUnretained(self).toOpaque())
        set = polled
        polled = []
        return timeout == UInt32.max ? nil : Int64(timeout)
    }

    /// Lets slirp act on what poll(2) returned in `set` (filled by ``fill(_:)``).
    func dispatch(_ set: [pollfd], failed: Bool) {
        polled = set
        slirp_pollfds_poll(slirp, failed ? 1 : 0, { index, opaque in
            guard let opaque else { return 0 }
            let stack = Unmanaged<SlirpStack>.fromOpaque(opaque).takeUnretainedValue()
            let entry = Int(index) + stack.firstSlirpEntry
            guard entry < stack.polled.count else { return 0 }
            return SlirpStack.slirpEvents(stack.polled[entry].revents)
        }, Unmanaged.passUnretained(self).toOpaque())
        polled = []
    }

    /// The earliest armed timer, ms on the monotonic clock.
    var nextTimer: Int64? {
        timers.values.compactMap(\.expiry).min()
    }

    /// Fires every timer due at `milliseconds`, in the order they were created.
    func fireTimers(at milliseconds: Int64) {
        for key in timers.keys.sorted() {
            guard let timer = timers[key], let expiry = timer.expiry, expiry <= milliseconds else { continue }
            timers[key]?.expiry = nil
            slirp_handle_timer(slirp, timer.id, timer.argument)
        }
    }

    private static func pollEvents(_ events: Int32) -> Int16 {
        var result: Int32 = 0
        if events & Int32(SLIRP_POLL_IN) != 0 { result |= POLLIN }
        if events & Int32(SLIRP_POLL_OUT) != 0 { result |= POLLOUT }
        if events & Int32(SLIRP_POLL_PRI) != 0 { result |= POLLPRI }
        return Int16(result)
    }

    private static func slirpEvents(_ revents: Int16) -> Int32 {
        let revents = Int32(revents)
        var result: Int32 = 0
        if revents & POLLIN != 0 { result |= Int32(SLIRP_POLL_IN) }
        if revents & POLLOUT != 0 { result |= Int32(SLIRP_POLL_OUT) }
        if revents & POLLPRI != 0 { result |= Int32(SLIRP_POLL_PRI) }
        if revents & POLLERR != 0 { result |= Int32(SLIRP_POLL_ERR) }
        if revents & POLLHUP != 0 { result |= Int32(SLIRP_POLL_HUP) }
        return result
    }
}
