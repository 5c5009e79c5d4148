import ArgumentParser
import LowbandProxy

/// The one `host:port` parser of the command line (`--listen`, `--upstream`, `--api`,
/// `--server`): toxiproxy's form, with an IPv6 host in brackets and a bare `:port` meaning
/// 127.0.0.1, and an error that names the option.
enum AddressOption {
    /// Parses `text` given to `option`; `allowsPortZero` is for addresses to listen on, where
    /// port 0 picks a free port.
    ///
    /// - Throws: `ValidationError` such as `--listen: ':99999' has no valid port (0-65535) after the last ':'`.
    static func parse(_ text: String, option: String, allowsPortZero: Bool = true) throws -> ProxyEndpoint {
        let endpoint: ProxyEndpoint
        do {
            endpoint = try ProxyEndpoint(parsing: text)
        } catch {
            throw ValidationError("\(option): \(error.message)")
        }
        guard allowsPortZero || endpoint.port != 0 else {
            throw ValidationError("\(option): '\(text)' needs a port 1-65535 to connect to")
        }
        return endpoint
    }
}
