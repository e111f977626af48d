/// Trimming without Foundation: `trimmingCharacters(in:)` is Foundation's (not
/// FoundationEssentials'), and importing Foundation loads libFoundation and ICU into every
/// process that links the module, `routectl daemon` among them.
extension StringProtocol {
    /// The text without white space (spaces, tabs, line ends) at either end.
    func trimmingWhitespace() -> String {
        guard let first = firstIndex(where: { !$0.isWhitespace }), let last = lastIndex(where: { !$0.isWhitespace }) else { return "" }
        return String(self[first...last])
    }
}
