/// Trimming without Foundation: `trimmingCharacters(in:)` is Foundation's (not
/// FoundationEssentials'), and importing Foundation loads libFoundation and ICU into every
/// process that links the module (Docs/Benchmarks.md, "What the daemon costs"). Shared by
/// every module that trims text.
package extension StringProtocol {
    /// The text without the characters at either end that `trimmed` matches.
    func trimming(while trimmed: (Character) -> Bool) -> String {
        guard let first = firstIndex(where: { !trimmed($0) }), let last = lastIndex(where: { !trimmed($0) }) else { return "" }
        return String(self[first...last])
    }

    /// The text without white space (spaces, tabs, line ends) at either end.
    func trimmingWhitespace() -> String {
        trimming(while: \.isWhitespace)
    }
}
