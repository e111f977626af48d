import RouteKit

/// Why audio goes where it goes, in a person's words, from the route, the preferences and
/// the manual selection. Pure.
enum RouteExplanation {
    /// The reason for `route`.
    static func why(route: AudioDevice?, preferences: [AudioPreference], selection: AudioDevice.ID?,
                    answerer: RoutingAnswerer, isYielding: Bool = false) -> String {
        guard answerer == .daemon else {
            return route == nil ? "no device: the server has no default sink RouteKit can name"
                : "the server's own default (no RouteKit daemon is running)"
        }
        guard let route else { return "no device: nothing usable is present, or the server cannot be reached" }
        if isYielding { return "another program keeps choosing the default; the daemon lets it" }
        if selection == route.id { return "chosen with 'routectl use' (kept while it is present)" }
        if let index = preferences.firstIndex(where: { $0.matches(route) }) {
            let entry = preferences[index]
            let rank = index == 0 ? "the first preference" : "preference \(index + 1)"
            return "\(rank), \(entry)" + (index == 0 ? "" : ": nothing before it is present and usable")
        }
        return preferences.isEmpty ? "the server's own choice: the daemon has no preferences"
            : "the server's own choice: no preference matches a usable device"
    }
}
