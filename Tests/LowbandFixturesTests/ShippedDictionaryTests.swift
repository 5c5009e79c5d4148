import Foundation
import LowbandFixtures
import LowbandWire
import Testing

/// The shipped wire dictionary is what its recipe makes, byte for byte: anyone can rebuild it,
/// and nobody can change the file (or the fixtures it is made from) without this failing.
///
/// To rebuild the file after a deliberate change — which needs a new dictionary id, since an id
/// names one sequence of bytes forever (docs/PROTOCOL.md, "Compression dictionaries"):
/// `LOWBAND_WRITE_DICTIONARY=1 swift test --filter ShippedDictionaryTests`.
@Suite struct ShippedDictionaryTests {
    static let file = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/LowbandWire/Dictionaries/messenger-1.lz4dict")

    @Test func theShippedDictionaryIsWhatItsRecipeBuilds() throws {
        let built = try MessengerDictionaryRecipe.build()
        if ProcessInfo.processInfo.environment["LOWBAND_WRITE_DICTIONARY"] == "1" {
            try Data(built).write(to: Self.file)
        }
        #expect(built.count == MessengerDictionaryRecipe.size)
        let shipped = WireDictionary.messenger1.dictionary.bytes
        #expect(shipped == built, "the compiled-in messenger-1 (\(shipped.count) bytes) differs from what MessengerDictionaryRecipe builds (\(built.count) bytes)")
        #expect(try Data(contentsOf: Self.file) == Data(built), "\(Self.file.path) differs from the recipe's bytes")
    }

    @Test func theRecipeDependsOnItsSeed() throws {
        #expect(try MessengerDictionaryRecipe.build(seed: 1) != MessengerDictionaryRecipe.build())
    }

    @Test func theShippedIDsAreDistinctAndInRange() {
        let ids = WireDictionary.shipped.map(\.id)
        #expect(Set(ids).count == ids.count)
        #expect(ids == ids.sorted())
        #expect(WireDictionary.shipped.allSatisfy { !$0.dictionary.bytes.isEmpty })
    }
}
