/// One lane a player for the guard's Pause and Play commands: each player gets them in the
/// order the machine decided them, one after the other, while players do not wait for one
/// another. Sent from separate tasks, a Play could overtake the Pause before it (or a Pause
/// the Play), leaving a player playing onto the loudspeaker or paused for good.
///
/// Each lane is a child task of the guard's run (its task group), ended when the run is.
struct PlayerCommandLanes {
    /// A command on its way: Play (true) or Pause (false), and whom to ask.
    private struct Command: Sendable {
        let play: Bool
        let source: any MediaPlayerControl
    }

    private var lanes: [String: AsyncStream<Command>.Continuation] = [:]

    /// Queues Play or Pause for `name` behind its earlier commands; `failed` hears of a
    /// command the player refused.
    mutating func send(play: Bool, to name: String, through source: any MediaPlayerControl,
                       group: inout DiscardingTaskGroup, failed: @escaping @Sendable (String) -> Void) {
        if lanes[name] == nil {
            let (commands, lane) = AsyncStream.makeStream(of: Command.self)
            lanes[name] = lane
            group.addTask {
                for await command in commands {
                    do {
                        if command.play { try await command.source.play(name) } else { try await command.source.pause(name) }
                    } catch {
                        failed("\(command.play ? "play" : "pause") \(name): \(error)")
                    }
                }
            }
        }
        lanes[name]?.yield(Command(play: play, source: source))
    }

    /// Ends every lane once its queued commands are sent.
    func finish() {
        for lane in lanes.values { lane.finish() }
    }
}
