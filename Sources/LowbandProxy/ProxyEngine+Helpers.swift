import LowbandDeterminism
import LowbandProxyCore
import LowbandShaper
import LowbandTransport
import NIOCore
import NIOPosix

/// ProxyEngine: addresses, errors and socket options in words and values.
extension ProxyEngine {
    /// Instants from here on (about 146 years) mean "never".
    static let never: Int64 = .max / 2

    /// Reads grow towards `readSize` while they come back full (bulk transfers: few, large
    /// chunks) and shrink again for small messages, so a queued 1-byte read does not pin a
    /// `readSize` buffer.
    static func recvAllocator(_ limits: ShapingProxy.Limits) -> AdaptiveRecvByteBufferAllocator {
        let maximum = max(limits.readSize, 64)
        return AdaptiveRecvByteBufferAllocator(minimum: min(64, maximum), initial: min(2048, maximum), maximum: maximum)
    }

    /// NIO requires `1 <= low <= high` (and stops the process otherwise).
    static func watermark(_ limits: ShapingProxy.Limits) -> ChannelOptions.Types.WriteBufferWaterMark {
        let high = max(limits.writeBufferHigh, 1)
        return ChannelOptions.Types.WriteBufferWaterMark(low: min(max(limits.writeBufferLow, 1), high), high: high)
    }

    /// The 4 or 16 bytes of an IP address, for a SOCKS reply.
    static func addressBytes(_ address: SocketAddress?) -> [UInt8]? {
        switch address {
        case .v4(let v4)?:
            return withUnsafeBytes(of: v4.address.sin_addr.s_addr) { Array($0) }
        case .v6(let v6)?:
            return withUnsafeBytes(of: v6.address.sin6_addr) { Array($0) }
        default:
            return nil
        }
    }

    /// What kind of failure a connect error is, for a front door's refusal.
    static func doorFailure(_ error: any Error) -> DoorFailure {
        switch error {
        case let error as NIOConnectionError:
            if let first = error.connectionErrors.first { return doorFailure(first.error) }
            return .unresolved
        case let error as IOError:
            return error.errnoCode == ECONNREFUSED ? .refused : error.errnoCode == ETIMEDOUT ? .timedOut : .other
        case ChannelError.connectTimeout:
            return .timedOut
        default:
            return .other
        }
    }

    static func format(_ address: SocketAddress) -> String {
        guard let ip = address.ipAddress, let port = address.port else { return "\(address)" }
        return ProxyEndpoint(host: ip, port: port).description
    }

    /// A short reason for a status line: `Connection refused`, `Connection reset by peer`.
    static func describe(_ error: any Error) -> String {
        switch error {
        case let error as NIOConnectionError:
            if let first = error.connectionErrors.first { return describe(first.error) }
            if error.dnsAError != nil || error.dnsAAAAError != nil { return "\(error.host) does not resolve" }
            return "cannot connect"
        case let error as IOError:
            return String(cString: strerror(error.errnoCode))
        case ChannelError.connectTimeout:
            return "connect timed out"
        case let error as ProxyError:
            return error.message
        default:
            return "\(error)"
        }
    }
}
