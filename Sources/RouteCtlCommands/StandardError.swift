import Foundation

/// Writes `message` and a newline to standard error.
func printToStandardError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

/// An environment variable, nil when unset or empty.
func getenvString(_ name: String) -> String? {
    guard let value = ProcessInfo.processInfo.environment[name], !value.isEmpty else { return nil }
    return value
}
