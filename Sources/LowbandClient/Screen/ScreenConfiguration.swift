/// How the headless chat screen behaves; every argument has a default.
public struct ScreenConfiguration: Hashable, Sendable {
    /// Messages per history page.
    public var pageSize: Int
    /// Rows on screen at once.
    public var viewportRows: Int
    /// An older page is requested when the top of the viewport comes this close to the top of
    /// the list, so it is there before the reader arrives.
    public var prefetchDistance: Int
    /// How long inserting a page at the top animates (the queue waits for it).
    public var insertAnimation: Duration
    /// How long adding a message at the bottom animates.
    public var appendAnimation: Duration
    /// Work on the screen queue longer than this is a dropped frame.
    public var frameBudget: Duration

    /// A configuration; counts are raised to their minimum (1 row, 1 message per page, distance 0).
    public init(
        pageSize: Int = 40,
        viewportRows: Int = 12,
        prefetchDistance: Int = 30,
        insertAnimation: Duration = .milliseconds(200),
        appendAnimation: Duration = .milliseconds(250),
        frameBudget: Duration = .milliseconds(16)
    ) {
        self.pageSize = max(1, pageSize)
        self.viewportRows = max(1, viewportRows)
        self.prefetchDistance = max(0, prefetchDistance)
        self.insertAnimation = insertAnimation
        self.appendAnimation = appendAnimation
        self.frameBudget = frameBudget
    }
}
