import LowbandStartup
import Testing

/// Reading one dump of callgrind's: the instructions, and how often each allocator was entered,
/// however callgrind wrote the names.
@Suite struct CountedRegionsTests {
    /// As callgrind 3.19 writes a dump with `--dump-instr=yes --dump-line=no
    /// --compress-strings=no --compress-pos=no` (cut down). A `calls=` count is left alone (it
    /// counts calls made outside the region too); a call's inclusive cost line is not an
    /// instruction of the caller; a loop inside `malloc` runs its later instructions more often
    /// than its entry.
    private static let plain = """
        # callgrind format
        version: 1
        positions: instr
        events: Ir
        summary: 5634

        ob=/usr/lib/x86_64-linux-gnu/libc.so.6
        fn=malloc
        0x98930 3
        0x98934 3
        0x98940 12
        cfn=_int_malloc
        calls=9000 0x97000
        0x98944 400
        fn=work
        0x401000 1
        cfn=malloc
        calls=3060 0x98930
        0x401004 999
        fn=realloc@@GLIBC_2.2.5
        0x99130 2
        0x99138 2
        fn=calloc
        0x996e0 1
        fn=free
        0x99000 5
        fn=malloc
        0x98930 4
        0x98934 4
        totals: 5634
        """

    @Test func instructionsAndAllocatorEntries() throws {
        let count = try #require(CountedRegions.parse(Self.plain))
        #expect(count == CountedRegions.Count(instructions: 5634, allocations: 3 + 4 + 2 + 1))
    }

    /// With name compression on, a name is given once as `(id) name` and then as `(id)` alone.
    @Test func compressedNamesAreFollowed() throws {
        let text = """
            events: Ir Dr
            fn=(1) work
            0x10 5 0
            cfn=(2) malloc
            calls=2 0x20
            0x14 10 0
            fn=(2)
            0x20 2 0
            0x24 2 1
            fn=(3) other
            cfn=(2)
            calls=5 0x20
            0x30 10 0
            fn=(2)
            0x20 5 0
            totals: 1234 99
            """
        #expect(CountedRegions.parse(text) == CountedRegions.Count(instructions: 1234, allocations: 7))
    }

    @Test func aDumpWithoutTotalsIsNotACount() {
        #expect(CountedRegions.parse("# callgrind format\nevents: Ir\nfn=main\n") == nil)
    }
}
