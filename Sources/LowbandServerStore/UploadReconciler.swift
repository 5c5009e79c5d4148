import LowbandServer

/// Brings a restarted server's upload records and files back in line: what a record
/// acknowledged is kept (its file cut back to that offset, dropping a piece written but not
/// acknowledged when the server died); a record whose file lacks acknowledged bytes, or a
/// finished one of the wrong size, is dropped (the client's next piece starts it again from 0);
/// a file without a record (an upload begun as the server died) is removed.
enum UploadReconciler {
    static func reconcile(
        _ snapshot: ServerSnapshot, storage: inout FileUploadStorage, store: SQLiteServerStore
    ) throws(ServerStoreError) -> (ServerSnapshot, notes: [String]) {
        var result = snapshot
        var notes: [String] = []
        result.uploads = []
        for record in snapshot.uploads {
            let name = "upload '\(record.uploadID)' of user \(record.userID) (\(storage.path(ofUpload: record.number)))"
            let size = storage.size(ofUpload: record.number) ?? 0
            let wanted = record.acknowledgedOffset
            if size < wanted || (record.complete && size != wanted) {
                try store.commit(.uploadDropped(userID: record.userID, uploadID: record.uploadID))
                try storage.remove(upload: record.number)
                notes.append("\(name): the file holds \(size) of its \(wanted) acknowledged bytes; dropped, the client uploads it again")
                continue
            }
            if size > wanted {
                try storage.truncate(upload: record.number, to: wanted)
                notes.append("\(name): cut back from \(size) to its \(wanted) acknowledged bytes; the client resumes there")
            }
            result.uploads.append(record)
        }
        let known = Set(result.uploads.map(\.number))
        for number in try storage.storedNumbers() where !known.contains(number) {
            try storage.remove(upload: number)
            notes.append("\(storage.path(ofUpload: number)): no upload record (begun as the server stopped); removed")
        }
        return (result, notes)
    }
}
