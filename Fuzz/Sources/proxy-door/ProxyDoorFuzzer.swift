import FuzzSupport
import LowbandProxyCore

/// The proxy's front doors (`lowband proxy --socks`, `--http-proxy`): a client's handshake bytes
/// read by `DoorHandshake` as SOCKS5 (no authentication, or username and password) or as an
/// HTTP proxy request.
///
/// Whatever arrives, in whatever pieces: the steps are the same as for the bytes at once;
/// nothing follows a `connect` or a `refuse`; a destination has a host of 1–255 bytes and a
/// port of 1–65535; what is forwarded is the client's own bytes (SOCKS) or its request
/// rewritten, at most a few hundred bytes longer; a refusal says why.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let choice = input.takeByte() % 3
    let chunking = Chunking(taking: &input)
    let bytes = input.rest()
    let door: ProxyDoor = switch choice {
    case 0: .socks5(nil)
    case 1: .socks5(SocksCredentials(username: "user", password: "pass"))
    default: .httpProxy
    }
    guard var whole = DoorHandshake(door: door), var pieces = DoorHandshake(door: door) else {
        finding("a front door has no handshake")
    }
    let once = whole.feed(bytes)
    var chunked: [DoorStep] = []
    // Bytes that arrive after the handshake ended go on to the link (the engine's next reads).
    var after: [UInt8] = []
    for chunk in chunking.chunks(of: bytes) {
        let ended = chunked.contains(where: { if case .reply = $0 { false } else { true } })
        let steps = pieces.feed(Array(chunk))
        if ended {
            require(steps.isEmpty, "steps after the handshake ended: \(steps)")
            after += chunk
        }
        chunked += steps
    }
    if case .connect(let destination, let forward)? = chunked.last {
        chunked[chunked.count - 1] = .connect(destination, forward: forward + after)
    }
    require(once == chunked, "the pieces changed the steps: \(once) vs \(chunked)")
    for (index, step) in once.enumerated() {
        switch step {
        case .reply(let reply):
            require(!reply.isEmpty && reply.count <= 2, "a handshake reply of \(reply.count) bytes")
        case .connect(let destination, let forward):
            require(index == once.count - 1, "a step after connect")
            require(!destination.host.isEmpty && destination.host.utf8.count <= 255, "a host of \(destination.host.utf8.count) bytes")
            require((1 ... 65535).contains(destination.port), "port \(destination.port)")
            require(forward.count <= bytes.count + 300, "forwarded \(forward.count) bytes of \(bytes.count)")
            _ = whole.success(boundAddress: nil, boundPort: 0)
            _ = whole.failure(.refused, reason: "x")
        case .refuse(let reply, let reason):
            require(index == once.count - 1, "a step after refuse")
            require(!reason.isEmpty, "a refusal without a reason")
            require(reply.count <= 600, "a refusal of \(reply.count) bytes")
        }
    }
    return 0
}
