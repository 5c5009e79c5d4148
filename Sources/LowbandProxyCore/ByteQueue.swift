import NIOCore

/// Bytes waiting in order, as the `ByteBuffer`s they were read in; taking splits a buffer
/// without copying.
struct ByteQueue {
    private var buffers = CircularBuffer<ByteBuffer>()
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    mutating func append(_ buffer: ByteBuffer) {
        guard buffer.readableBytes > 0 else { return }
        count += buffer.readableBytes
        buffers.append(buffer)
    }

    /// Removes the first `bytes` bytes (at most `count`), handing each piece to `body` in order.
    mutating func take(_ bytes: Int, _ body: (ByteBuffer) -> Void) {
        var remaining = min(bytes, count)
        while remaining > 0, var head = buffers.first {
            if head.readableBytes <= remaining {
                buffers.removeFirst()
                remaining -= head.readableBytes
                count -= head.readableBytes
                body(head)
            } else {
                // readSlice cannot fail: remaining < readableBytes.
                let piece = head.readSlice(length: remaining) ?? ByteBuffer()
                buffers[buffers.startIndex] = head
                count -= remaining
                remaining = 0
                body(piece)
            }
        }
    }

    /// Discards the first `bytes` bytes.
    mutating func discard(_ bytes: Int) {
        take(bytes) { _ in }
    }

    mutating func removeAll() {
        buffers.removeAll()
        count = 0
    }
}
