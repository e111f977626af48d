import MediaControl
import PulseAudio

extension DaemonConfiguration {
    /// Whether something besides the scope follows the server's streams: media pausing or
    /// holding, call detection, ringing anywhere but on the headset alone.
    package var followsStreams: Bool {
        media.pausesOnUnplug || media.holdsMediaDuringCalls || calls.detects || calls.ringing != .headset
    }

    /// What the daemon's server connection hears about, fixed when it starts: the scope's
    /// events, and the streams' when anything follows them.
    package var subscription: SubscriptionMask {
        followsStreams ? scope.subscription.union(.streams) : scope.subscription
    }
}

extension ReloadPlan {
    /// What a reload can do with the stream events the connection subscribed to at start.
    package struct Fitted: Equatable, Sendable {
        /// What applies now.
        var configuration: DaemonConfiguration
        /// Keys, as the file writes them, left as they were until the daemon restarts.
        var waiting: [String] = []
        /// Keys that apply now but in part until the daemon restarts.
        var partial: [String] = []
    }

    /// `loaded` as far as a connection subscribed to `subscription` at start can follow it.
    /// Without stream events, turning on media pausing or holding media during calls waits
    /// for a restart (those keys stay as `running` has them); ringing off the headset applies,
    /// but moves only the ring streams already playing when a call rings. Call detection is
    /// not among them: it always waits for a restart (``Step/callDetectionNeedsRestart``). Pure.
    package static func fitted(_ loaded: DaemonConfiguration, running: DaemonConfiguration,
                       subscription: SubscriptionMask) -> Fitted {
        var fitted = Fitted(configuration: loaded)
        guard !subscription.contains(.streams) else { return fitted }
        if loaded.media.pausesOnUnplug && !running.media.pausesOnUnplug {
            fitted.configuration.media.pausesOnUnplug = running.media.pausesOnUnplug
            fitted.waiting.append("[media] pause-on-unplug")
        }
        if loaded.media.holdsMediaDuringCalls && !running.media.holdsMediaDuringCalls {
            fitted.configuration.media.holdsMediaDuringCalls = running.media.holdsMediaDuringCalls
            fitted.waiting.append("[media] hold-during-calls")
        }
        if loaded.calls.ringing != running.calls.ringing && loaded.calls.ringing != .headset {
            fitted.partial.append("[calls] ringing")
        }
        return fitted
    }
}
