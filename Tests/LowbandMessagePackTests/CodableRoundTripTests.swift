import Foundation
import LowbandMessagePack
import Testing

/// Codable values survive MessagePackEncoder → MessagePackDecoder, with the bytes pinned where it matters.
@Suite struct CodableRoundTripTests {
    enum Priority: Int, Codable { case low = 1, high = 9 }
    enum Kind: String, Codable { case text, photo = "image" }

    struct Attachment: Codable, Equatable {
        var name: String
        var bytes: Data
        var sent: Date
    }

    struct Chat: Codable, Equatable {
        var id: UInt64
        var title: String
        var muted: Bool
        var unread: UInt8
        var priority: Priority
        var kind: Kind
        var lastSeen: Date?
        var draft: String?
        var members: [Int32]
        var attachments: [Attachment]
        var counts: [String: Int]
        var names: [Int: String]
        var matrix: [[Double]]
        var gaps: [Int?]
        var nested: [String: [String: Bool]]
        var ratio: Float
        var small: Int8
        var wide: Int64
        var word: UInt16
    }

    static let chat = Chat(
        id: UInt64.max, title: "Общий чат 👋", muted: false, unread: 255, priority: .high, kind: .photo,
        lastSeen: Date(timeIntervalSince1970: 1_700_000_000.5), draft: nil, members: [1, -2, .max, .min],
        attachments: [
            Attachment(name: "a.jpg", bytes: Data([0, 1, 2, 255]), sent: Date(timeIntervalSince1970: -86_400)),
            Attachment(name: "", bytes: Data(), sent: Date(timeIntervalSince1970: 4_294_967_296)),
        ],
        counts: ["b": 2, "a": 1, "10": 10], names: [3: "three", -7: "minus seven"], matrix: [[], [1.5, -0.0], [.infinity]],
        gaps: [nil, 1, nil], nested: ["x": ["on": true], "": [:]], ratio: 0.25, small: -128, wide: .min, word: 65535
    )

    @Test func nestedStructRoundTrips() throws {
        let bytes = try MessagePackEncoder().encode(Self.chat)
        let decoded = try MessagePackDecoder().decode(Chat.self, from: bytes)
        #expect(decoded == Self.chat)
        #expect(try MessagePackEncoder().encode(decoded) == bytes)
    }

    @Test func nestedStructBytesUseNativeForms() throws {
        let value = try MessagePackValue(decoding: try MessagePackEncoder().encode(Self.chat))
        #expect(value["id"] == .uint(UInt64.max))
        #expect(value["priority"] == 9)
        #expect(value["kind"] == "image")
        #expect(value["lastSeen"] == .timestamp(MessagePackTimestamp(seconds: 1_700_000_000, nanoseconds: 500_000_000)))
        #expect(value["draft"] == nil, "a nil optional is left out, as synthesized Codable asks")
        #expect(value["attachments"] == [
            ["name": "a.jpg", "bytes": .binary([0, 1, 2, 255]), "sent": .timestamp(MessagePackTimestamp(seconds: -86_400))],
            ["name": "", "bytes": .binary([]), "sent": .timestamp(MessagePackTimestamp(seconds: 4_294_967_296))],
        ])
        #expect(value["counts"] == ["10": 10, "a": 1, "b": 2])
        #expect(value["names"] == [-7: "minus seven", 3: "three"])
        #expect(value["matrix"] == [[], [.double(1.5), .double(-0.0)], [.double(.infinity)]])
        #expect(value["gaps"] == [nil, 1, nil])
        #expect(value["ratio"] == .float(0.25))
    }

    @Test func scalarsAtTheTopLevel() throws {
        let encoder = MessagePackEncoder()
        let decoder = MessagePackDecoder()
        #expect(hex(try encoder.encode(true)) == "c3")
        #expect(hex(try encoder.encode(Int?.none)) == "c0")
        #expect(hex(try encoder.encode(-33)) == "d0 df")
        #expect(hex(try encoder.encode(UInt8(200))) == "cc c8")
        #expect(hex(try encoder.encode("hi")) == "a2 68 69")
        #expect(hex(try encoder.encode(Data([7]))) == "c4 01 07")
        #expect(hex(try encoder.encode(Priority.low)) == "01")
        #expect(try decoder.decode(Bool.self, from: fromHex("c3")))
        #expect(try decoder.decode(Int?.self, from: fromHex("c0")) == nil)
        #expect(try decoder.decode(Int?.self, from: fromHex("05")) == 5)
        #expect(try decoder.decode(Kind.self, from: fromHex("a5 69 6d 61 67 65")) == .photo)
        #expect(try decoder.decode(Double.self, from: fromHex("ca 3f c0 00 00")) == 1.5)
        #expect(try decoder.decode(Float.self, from: fromHex("cb 3f f8 00 00 00 00 00 00")) == 1.5)
        #expect(try decoder.decode(Data.self, from: fromHex("c4 00")) == Data())
    }

    @Test func unknownRawValuesFail() {
        #expect(throws: (any Error).self) { try MessagePackDecoder().decode(Priority.self, from: fromHex("05")) }
    }

    @Test func missingKeysNameTheKey() {
        let error = #expect(throws: MessagePackError.self) { try MessagePackDecoder().decode(Attachment.self, from: fromHex("81 a4 6e 61 6d 65 a0")) }
        #expect(error?.code == .keyNotFound)
        #expect(error?.message.contains("\"bytes\"") == true)
        #expect(error?.offset == 0)
    }

    enum Shape: Codable, Equatable {
        case circle(radius: Double)
        case polygon([Int], closed: Bool)
        case empty
    }

    @Test func enumsWithAssociatedValuesUseNestedContainers() throws {
        let shapes: [Shape] = [.circle(radius: 2), .polygon([1, 2], closed: true), .empty]
        let bytes = try MessagePackEncoder().encode(shapes)
        #expect(try MessagePackDecoder().decode([Shape].self, from: bytes) == shapes)
        #expect(try MessagePackValue(decoding: bytes) == [
            ["circle": ["radius": .double(2)]],
            ["polygon": ["_0": [1, 2], "closed": true]],
            ["empty": [:]],
        ])
    }

    /// Writes its fields through nested keyed and unkeyed containers by hand.
    struct Point: Codable, Equatable {
        var x: Int
        var y: Int
        var label: String

        enum Keys: String, CodingKey { case coords, meta }
        enum MetaKeys: String, CodingKey { case label }

        init(x: Int, y: Int, label: String) {
            self.x = x
            self.y = y
            self.label = label
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            var coords = try container.nestedUnkeyedContainer(forKey: .coords)
            x = try coords.decode(Int.self)
            y = try coords.decode(Int.self)
            #expect(coords.isAtEnd)
            #expect(coords.count == 2)
            label = try container.nestedContainer(keyedBy: MetaKeys.self, forKey: .meta).decode(String.self, forKey: .label)
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            var coords = container.nestedUnkeyedContainer(forKey: .coords)
            try coords.encode(x)
            try coords.encode(y)
            var meta = container.nestedContainer(keyedBy: MetaKeys.self, forKey: .meta)
            try meta.encode(label, forKey: .label)
        }
    }

    /// Pairs of points written as [[x, y], {label}] through unkeyed nesting.
    struct Segment: Codable, Equatable {
        var points: [Point]

        init(points: [Point]) { self.points = points }

        init(from decoder: any Decoder) throws {
            var outer = try decoder.unkeyedContainer()
            points = []
            while !outer.isAtEnd {
                var pair = try outer.nestedUnkeyedContainer()
                let x = try pair.decode(Int.self)
                let y = try pair.decode(Int.self)
                let meta = try outer.nestedContainer(keyedBy: Point.MetaKeys.self)
                points.append(Point(x: x, y: y, label: try meta.decode(String.self, forKey: .label)))
            }
        }

        func encode(to encoder: any Encoder) throws {
            var outer = encoder.unkeyedContainer()
            for point in points {
                var pair = outer.nestedUnkeyedContainer()
                try pair.encode(point.x)
                try pair.encode(point.y)
                var meta = outer.nestedContainer(keyedBy: Point.MetaKeys.self)
                try meta.encode(point.label, forKey: .label)
            }
        }
    }

    @Test func nestedContainersRoundTrip() throws {
        let point = Point(x: -1, y: 300, label: "p")
        let pointBytes = try MessagePackEncoder().encode(point)
        #expect(hex(pointBytes) == "82 a6 63 6f 6f 72 64 73 92 ff cd 01 2c a4 6d 65 74 61 81 a5 6c 61 62 65 6c a1 70")
        #expect(try MessagePackDecoder().decode(Point.self, from: pointBytes) == point)

        let segment = Segment(points: [point, Point(x: 0, y: 1, label: "q")])
        let segmentBytes = try MessagePackEncoder().encode(segment)
        #expect(try MessagePackValue(decoding: segmentBytes) == [[-1, 300], ["label": "p"], [0, 1], ["label": "q"]])
        #expect(try MessagePackDecoder().decode(Segment.self, from: segmentBytes) == segment)
    }

    class Animal: Codable {
        var name: String
        init(name: String) { self.name = name }
    }

    /// Keeps its superclass's fields under "super", as Apple's documentation suggests.
    final class Dog: Animal {
        var good: Bool
        enum CodingKeys: String, CodingKey { case good, base }

        init(name: String, good: Bool) {
            self.good = good
            super.init(name: name)
        }

        required init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            good = try container.decode(Bool.self, forKey: .good)
            try super.init(from: container.superDecoder())
        }

        override func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(good, forKey: .good)
            try super.encode(to: container.superEncoder())
        }
    }

    /// Keeps its superclass's fields under a key of its own choosing.
    final class Cat: Animal {
        var lives: Int
        enum CodingKeys: String, CodingKey { case lives, base }

        init(name: String, lives: Int) {
            self.lives = lives
            super.init(name: name)
        }

        required init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            lives = try container.decode(Int.self, forKey: .lives)
            try super.init(from: container.superDecoder(forKey: .base))
        }

        override func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(lives, forKey: .lives)
            try super.encode(to: container.superEncoder(forKey: .base))
        }
    }

    /// Shares one map with its superclass.
    final class Bird: Animal {
        var wings: Int
        enum CodingKeys: String, CodingKey { case wings }

        init(name: String, wings: Int) {
            self.wings = wings
            super.init(name: name)
        }

        required init(from decoder: any Decoder) throws {
            wings = try decoder.container(keyedBy: CodingKeys.self).decode(Int.self, forKey: .wings)
            try super.init(from: decoder)
        }

        override func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(wings, forKey: .wings)
            try super.encode(to: encoder)
        }
    }

    @Test func classWithSuperEncoder() throws {
        let bytes = try MessagePackEncoder().encode(Dog(name: "Rex", good: true))
        #expect(hex(bytes) == "82 a4 67 6f 6f 64 c3 a5 73 75 70 65 72 81 a4 6e 61 6d 65 a3 52 65 78")
        let dog = try MessagePackDecoder().decode(Dog.self, from: bytes)
        #expect(dog.name == "Rex")
        #expect(dog.good)
    }

    @Test func classWithSuperEncoderForKey() throws {
        let bytes = try MessagePackEncoder().encode(Cat(name: "Tom", lives: 9))
        #expect(try MessagePackValue(decoding: bytes) == ["lives": 9, "base": ["name": "Tom"]])
        let cat = try MessagePackDecoder().decode(Cat.self, from: bytes)
        #expect(cat.name == "Tom")
        #expect(cat.lives == 9)
    }

    @Test func classSharingItsSuperclassMap() throws {
        let bytes = try MessagePackEncoder().encode(Bird(name: "Kiwi", wings: 2))
        #expect(try MessagePackValue(decoding: bytes) == ["wings": 2, "name": "Kiwi"])
        let bird = try MessagePackDecoder().decode(Bird.self, from: bytes)
        #expect(bird.name == "Kiwi")
        #expect(bird.wings == 2)
    }

    @Test func superEncoderInsideAnArray() throws {
        struct Wrapper: Codable {
            var animal: Animal
            init(animal: Animal) { self.animal = animal }
            init(from decoder: any Decoder) throws {
                var container = try decoder.unkeyedContainer()
                animal = try Animal(from: container.superDecoder())
                #expect(container.isAtEnd)
            }

            func encode(to encoder: any Encoder) throws {
                var container = encoder.unkeyedContainer()
                try animal.encode(to: container.superEncoder())
            }
        }
        let bytes = try MessagePackEncoder().encode(Wrapper(animal: Animal(name: "Nemo")))
        #expect(try MessagePackValue(decoding: bytes) == [["name": "Nemo"]])
        #expect(try MessagePackDecoder().decode(Wrapper.self, from: bytes).animal.name == "Nemo")
    }

    @Test func arraysOfOptionalsAndEmptyValues() throws {
        let encoder = MessagePackEncoder()
        #expect(hex(try encoder.encode([Int?]([nil, 1]))) == "92 c0 01")
        #expect(hex(try encoder.encode([[String: Int]]([[:]]))) == "91 80")
        #expect(hex(try encoder.encode([[Int]]([[], []]))) == "92 90 90")
        #expect(try MessagePackDecoder().decode([[Int?]].self, from: fromHex("92 90 92 c0 07")) == [[], [nil, 7]])
    }

    @Test func keysOfAnyIntegerWidthAreAccepted() throws {
        struct Named: Decodable, Equatable { var name: String }
        // {-1: true, "name": "x", 2^64 - 1: nil}: keys the type does not know are skipped.
        let bytes = fromHex("83 ff c3 a4 6e 61 6d 65 a1 78 cf ff ff ff ff ff ff ff ff c0")
        #expect(try MessagePackDecoder().decode(Named.self, from: bytes) == Named(name: "x"))
        let keys = try MessagePackDecoder().decode([String: Bool?].self, from: bytes.replacing([0xa1, 0x78], with: [0xc2])).keys.sorted()
        #expect(keys == ["-1", "18446744073709551615", "name"])
    }

    @Test func integersDecodeFromAnyFormThatFits() throws {
        let decoder = MessagePackDecoder()
        #expect(try decoder.decode(UInt8.self, from: fromHex("d0 05")) == 5)
        #expect(try decoder.decode(Int8.self, from: fromHex("cf 00 00 00 00 00 00 00 7f")) == 127)
        #expect(try decoder.decode(Int64.self, from: fromHex("cf 7f ff ff ff ff ff ff ff")) == .max)
        #expect(try decoder.decode(UInt.self, from: fromHex("cf ff ff ff ff ff ff ff ff")) == .max)
    }
}
