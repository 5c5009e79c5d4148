import Foundation
import NIOCore
import NIOPosix

/// A system error in words: `Address already in use`, not NIO's
/// `bind(descriptor:ptr:bytes:): Address already in use) (errno: 98)` or Foundation's
/// `Error Domain=NSCocoaErrorDomain Code=4 …` dump.
enum SystemErrorText {
    /// The words of an `errno` value (by default the calling thread's last): `No such file or directory`.
    static func errno(_ code: Int32 = Glibc.errno) -> String {
        String(cString: strerror(code))
    }

    static func describe(_ error: any Error) -> String {
        if let error = error as? IOError {
            return Self.errno(error.errnoCode)
        }
        // A failed connect: the first address's reason, as the proxy words it too.
        if let error = error as? NIOConnectionError {
            return error.connectionErrors.first.map { describe($0.error) } ?? "cannot connect to \(error.host):\(error.port)"
        }
        if case ChannelError.connectTimeout = error {
            return "connect timed out"
        }
        if let error = error as? CocoaError {
            let path = error.filePath.map { "\($0): " } ?? ""
            if let underlying = error.underlying as? POSIXError {
                return path + Self.errno(underlying.code.rawValue)
            }
            return path + error.localizedDescription
        }
        return "\(error)"
    }
}
