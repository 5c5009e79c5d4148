import LowbandLZ4
import Testing

@Suite struct LZ4LevelTests {
    @Test func validLevelsPassValidation() throws {
        for level in [LZ4Level.default, .fast(), .fast(acceleration: 2), .fast(acceleration: LZ4Level.maximumAcceleration)] {
            try level.validate()
        }
        for hc in 1...12 {
            try LZ4Level.high(level: hc).validate()
        }
    }

    @Test(arguments: [
        LZ4Level.fast(acceleration: 0), .fast(acceleration: -1), .fast(acceleration: 65_538),
        .high(level: 0), .high(level: 13), .high(level: -3),
    ])
    func outOfRangeLevelsAreRejected(level: LZ4Level) {
        expectLZ4Error(.invalidLevel) { try level.validate() }
        expectLZ4Error(.invalidLevel) { try LZ4Block.compress([1, 2, 3], level: level) }
        expectLZ4Error(.invalidLevel) { try LZ4FrameCompressor(configuration: .init(level: level)) }
        expectLZ4Error(.invalidLevel) { try LZ4Frame.compress([1, 2, 3], configuration: .init(level: level)) }
    }

    @Test func errorMessageNamesTheValueAndRange() {
        let error = expectLZ4Error(.invalidLevel) { try LZ4Level.high(level: 13).validate() }
        #expect(error?.message == "HC level 13 is outside 1...12")
    }

    @Test func commandLineLevelsMapLikeTheLZ4Tool() throws {
        #expect(try LZ4Level(commandLineLevel: 1) == .fast(acceleration: 1))
        #expect(try LZ4Level(commandLineLevel: 2) == .fast(acceleration: 1))
        for level in 3...12 {
            #expect(try LZ4Level(commandLineLevel: level) == .high(level: level))
        }
        expectLZ4Error(.invalidLevel) { try LZ4Level(commandLineLevel: 0) }
        expectLZ4Error(.invalidLevel) { try LZ4Level(commandLineLevel: 13) }
    }
}

@Suite struct LZ4DictionaryTests {
    @Test func keepsOnlyTheLast64KiB() {
        let bytes = TestData.random(count: 100_000)
        let dictionary = LZ4Dictionary(bytes)
        #expect(dictionary.bytes.count == 65_536)
        #expect(dictionary.bytes[...] == bytes.suffix(65_536))
        #expect(LZ4Dictionary([1, 2, 3]).bytes == [1, 2, 3])
    }

    @Test func samplesAreConcatenatedInOrderAndTrimmedFromTheFront() {
        #expect(LZ4Dictionary(samples: [[1, 2], [3], [4, 5, 6]]).bytes == [1, 2, 3, 4, 5, 6])
        #expect(LZ4Dictionary(samples: []).bytes.isEmpty)

        let first = [UInt8](repeating: 1, count: 40_000)
        let second = [UInt8](repeating: 2, count: 30_000)
        let third = [UInt8](repeating: 3, count: 20_000)
        let dictionary = LZ4Dictionary(samples: [first, second, third])
        #expect(dictionary.bytes.count == 65_536)
        #expect(dictionary.bytes == [UInt8](repeating: 1, count: 15_536) + second + third)
    }
}
