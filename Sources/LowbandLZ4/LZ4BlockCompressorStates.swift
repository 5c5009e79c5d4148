import CLZ4

/// liblz4's fast-compressor stream with one dictionary loaded, never changed after it is made.
///
/// A block compressed from a copy of this stream gets exactly the state a new stream has after
/// `LZ4_loadDict`, so the output equals loading the dictionary for every block, without its cost
/// (hashing every position of up to 64 KiB: about as much as compressing them). Only copied
/// from after `init`, never written, so one value serves every thread: hence `@unchecked
/// Sendable`. Every ``LZ4Dictionary`` with bytes holds one.
final class LoadedFastDictionary: @unchecked Sendable {
    /// Our own copy of the dictionary: the loaded stream points into it, so it must not move.
    private let dictionary: UnsafeMutableRawBufferPointer
    private let loaded: UnsafeMutablePointer<LZ4_stream_t>
    /// liblz4's size of a stream, which may exceed the header's on another liblz4 version.
    let stateSize: Int

    init(_ bytes: [UInt8]) {
        stateSize = Int(LZ4_sizeofState())
        let dictionary = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 16)
        bytes.withUnsafeBytes { dictionary.copyMemory(from: $0) }
        self.dictionary = dictionary
        loaded = allocateState(size: stateSize, as: LZ4_stream_t.self)
        LZ4_initStream(loaded, stateSize)
        LZ4_loadDict(loaded, UnsafeRawBufferPointer(dictionary).cChars, Int32(bytes.count))
    }

    deinit {
        dictionary.deallocate()
        loaded.deallocate()
    }

    /// `LZ4_compress_fast_continue` on `working` (``stateSize`` bytes) reset to the loaded
    /// stream; 0 on failure.
    func compress(
        _ source: UnsafePointer<CChar>,
        _ destination: UnsafeMutablePointer<CChar>,
        _ sourceSize: Int32,
        _ capacity: Int32,
        acceleration: Int32,
        working: UnsafeMutablePointer<LZ4_stream_t>
    ) -> Int32 {
        UnsafeMutableRawPointer(working).copyMemory(from: loaded, byteCount: stateSize)
        return LZ4_compress_fast_continue(working, source, destination, sourceSize, capacity, acceleration)
    }

    /// The same, on a working stream on the stack (16 KiB) for this one block.
    func compress(
        _ source: UnsafePointer<CChar>,
        _ destination: UnsafeMutablePointer<CChar>,
        _ sourceSize: Int32,
        _ capacity: Int32,
        acceleration: Int32
    ) -> Int32 {
        withUnsafeTemporaryAllocation(byteCount: max(stateSize, MemoryLayout<LZ4_stream_t>.size), alignment: 64) { raw in
            let working = raw.baseAddress!.bindMemory(to: LZ4_stream_t.self, capacity: 1)
            return compress(source, destination, sourceSize, capacity, acceleration: acceleration, working: working)
        }
    }
}

/// liblz4's fast-compressor state with a dictionary loaded once, for ``LZ4BlockCompressor``:
/// the dictionary's ``LoadedFastDictionary`` and a working stream of its own, so a block costs
/// no stack.
final class FastDictionaryState {
    private let loaded: LoadedFastDictionary
    private let working: UnsafeMutablePointer<LZ4_stream_t>

    init(_ loaded: LoadedFastDictionary) {
        self.loaded = loaded
        working = allocateState(size: loaded.stateSize, as: LZ4_stream_t.self)
        LZ4_initStream(working, loaded.stateSize)
    }

    deinit {
        working.deallocate()
    }

    /// `LZ4_compress_fast_continue` from the freshly loaded dictionary; 0 on failure.
    func compress(
        _ source: UnsafePointer<CChar>,
        _ destination: UnsafeMutablePointer<CChar>,
        _ sourceSize: Int32,
        _ capacity: Int32,
        acceleration: Int32
    ) -> Int32 {
        loaded.compress(source, destination, sourceSize, capacity, acceleration: acceleration, working: working)
    }
}

/// liblz4's HC state kept between blocks, with an optional dictionary loaded once, for
/// ``LZ4BlockCompressor``.
///
/// Without a dictionary `LZ4_resetStreamHC_fast` starts each block: it clears nothing and moves
/// the window past the previous block, so old table entries are ignored and the output equals
/// `LZ4_compress_HC`'s. With a dictionary each block starts from a copy of the stream as
/// `LZ4_loadDictHC` left it, the state the one-shot path builds on every call.
final class HighState {
    private let level: Int32
    private let working: UnsafeMutablePointer<LZ4_streamHC_t>
    /// The stream with the dictionary loaded, and our copy of the dictionary it points into.
    private let loaded: (stream: UnsafeMutablePointer<LZ4_streamHC_t>, dictionary: UnsafeMutableRawBufferPointer)?
    private let stateSize: Int

    init(level: Int32, dictionary bytes: [UInt8]) {
        self.level = level
        stateSize = Int(LZ4_sizeofStateHC())
        working = allocateState(size: stateSize, as: LZ4_streamHC_t.self)
        LZ4_initStreamHC(working, stateSize)
        if bytes.isEmpty {
            loaded = nil
        } else {
            let dictionary = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 16)
            bytes.withUnsafeBytes { dictionary.copyMemory(from: $0) }
            let stream = allocateState(size: stateSize, as: LZ4_streamHC_t.self)
            LZ4_initStreamHC(stream, stateSize)
            LZ4_resetStreamHC_fast(stream, level)
            LZ4_loadDictHC(stream, UnsafeRawBufferPointer(dictionary).cChars, Int32(bytes.count))
            loaded = (stream, dictionary)
        }
    }

    deinit {
        working.deallocate()
        if let loaded {
            loaded.stream.deallocate()
            loaded.dictionary.deallocate()
        }
    }

    /// `LZ4_compress_HC_continue` on a reset stream (or a copy of the loaded one); 0 on failure.
    func compress(
        _ source: UnsafePointer<CChar>,
        _ destination: UnsafeMutablePointer<CChar>,
        _ sourceSize: Int32,
        _ capacity: Int32
    ) -> Int32 {
        if let loaded {
            UnsafeMutableRawPointer(working).copyMemory(from: loaded.stream, byteCount: stateSize)
        } else {
            LZ4_resetStreamHC_fast(working, level)
        }
        return LZ4_compress_HC_continue(working, source, destination, sourceSize, capacity)
    }
}

/// Uninitialized memory for a liblz4 state of `size` bytes (the library's `sizeof`, which may
/// exceed the header's on another liblz4 version), aligned for the state and a cache line.
private func allocateState<State>(size: Int, as _: State.Type) -> UnsafeMutablePointer<State> {
    let byteCount = max(size, MemoryLayout<State>.size)
    let alignment = max(64, MemoryLayout<State>.alignment)
    return UnsafeMutableRawPointer.allocate(byteCount: byteCount, alignment: alignment)
        .bindMemory(to: State.self, capacity: 1)
}
