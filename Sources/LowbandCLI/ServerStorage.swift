import Foundation
import LowbandFixtures
import LowbandServer
import LowbandServerStore

/// Where `lowband server` keeps its data: a `--data` directory, or memory with uploads in a
/// temporary folder (removed when the server stops; a killed server leaves it in the system's
/// temporary directory as `lowband-uploads-*`).
struct ServerStorage {
    let core: ServerCore
    /// The seeded world the data grew from: the users' tokens for the banner.
    let world: MessengerWorld
    /// Lines for the banner: where the data is and what opening it repaired.
    let summary: String
    private let temporaryFolder: String?

    init(data: String?, world: MessengerWorld, configuration: ServerConfiguration) throws {
        self.world = world
        if let data {
            let opened = try ServerDataDirectory.open(data, world: world, configuration: configuration)
            core = opened.core
            var summary = "data \(data): \(opened.seeded ? "seeded" : "restored"), last message id \(Self.lastMessageID(core))\n"
            for note in opened.notes { summary += "data: \(note)\n" }
            self.summary = summary
            temporaryFolder = nil
            return
        }
        let template = NSTemporaryDirectory() + "lowband-uploads-XXXXXX"
        var bytes = Array(template.utf8CString)
        guard let made = mkdtemp(&bytes) else {
            throw ServerStoreError(.io, "cannot create a temporary upload folder under \(NSTemporaryDirectory()): \(SystemErrorText.errno())")
        }
        let folder = String(cString: made)
        core = ServerCore(
            configuration: configuration, snapshot: ServerSnapshot(world: world, epoch: configuration.epoch),
            store: MemoryServerStore(), uploadStorage: try FileUploadStorage(directory: folder, syncs: false)
        )
        summary = "data in memory (gone at exit; uploads in \(folder))\n"
        temporaryFolder = folder
    }

    var messageCount: Int {
        (1 ... max(1, core.chatCount)).reduce(0) { $0 + (core.messages(in: Int64($1))?.count ?? 0) }
    }

    func removeTemporaryFiles() {
        if let temporaryFolder { try? FileManager.default.removeItem(atPath: temporaryFolder) }
    }

    private static func lastMessageID(_ core: ServerCore) -> Int64 {
        (1 ... max(1, core.chatCount)).compactMap { core.messages(in: Int64($0))?.last?.id }.max() ?? 0
    }
}
