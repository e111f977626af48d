extension String {
    /// Whether any of `needles` occurs in the string, compared byte for byte in UTF-8.
    ///
    /// The classifier asks this of names it has lowercased, with ASCII needles, dozens of times
    /// per device. The standard library's `contains(_:)` builds a searcher for every call and
    /// compares by `Character`; that was a third of a new sink's classification, which sits
    /// between the server's answer and the switch. For ASCII needles the two agree except
    /// where a combining mark follows a match (`"null\u{301}"`), which no device name carries.
    package func containsAny(_ needles: StaticString...) -> Bool {
        if let found = utf8.withContiguousStorageIfAvailable({ Self.containsAny(needles, in: $0) }) { return found }
        return Array(utf8).withUnsafeBufferPointer { Self.containsAny(needles, in: $0) }
    }

    private static func containsAny(_ needles: [StaticString], in haystack: UnsafeBufferPointer<UInt8>) -> Bool {
        needles.contains { needle in
            needle.withUTF8Buffer { needle in contains(needle, in: haystack) }
        }
    }

    private static func contains(_ needle: UnsafeBufferPointer<UInt8>, in haystack: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = needle.first else { return true }
        guard needle.count <= haystack.count else { return false }
        for start in 0...(haystack.count - needle.count) where haystack[start] == first {
            var offset = 1
            while offset < needle.count, haystack[start + offset] == needle[offset] { offset += 1 }
            if offset == needle.count { return true }
        }
        return false
    }
}
