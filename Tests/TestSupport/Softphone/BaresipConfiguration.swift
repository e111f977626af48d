/// The files one baresip user agent of the softphone rig runs with, written into its own
/// folder: `config` and `accounts` for baresip (`-f <folder>`), and `.asoundrc` for ALSA (the
/// folder is its `HOME`).
///
/// SIP, RTP and the control socket on 127.0.0.1 only, no registrar (`regint=0`), calls
/// answered at once (`answermode=auto`), G.711 only, audio through the ALSA `pulse` device.
struct BaresipConfiguration: Sendable, Equatable {
    /// The account's user part: the phone is `sip:<user>@127.0.0.1:<sipPort>`.
    var user: String
    /// Where SIP listens (UDP and TCP).
    var sipPort: UInt16
    /// Where the `ctrl_tcp` module listens.
    var controlPort: UInt16
    /// The sound server the ALSA plugin connects to (`unix:/…/native`).
    var serverAddress: String

    /// The phone's address.
    var uri: String { "sip:\(user)@127.0.0.1:\(sipPort)" }

    /// baresip's `config`. Only what the rig needs is loaded: no `stdio` (it wants a terminal),
    /// no video, no STUN/TURN/ICE; `menu` for the commands ctrl_tcp runs, with its status line
    /// off (it rewrites one line with `\r` many times a second, and the rig reads lines).
    /// The ringback tone is off so that the caller's only playback stream is the call's. RTP
    /// stays below the kernel's ephemeral range (32768 and up), where the SIP and control ports
    /// are picked: baresip's own default range (1024–49152) overlaps it.
    var config: String {
        """
        poll_method\tepoll
        sip_listen\t127.0.0.1:\(sipPort)
        net_interface\t127.0.0.1
        rtp_ports\t10000-20000
        call_local_timeout\t120
        call_max_calls\t4
        audio_player\talsa,pulse
        audio_source\talsa,pulse
        audio_alert\talsa,pulse
        audio_level\tno
        module_path\t/usr/lib/baresip/modules
        module\tg711.so
        module\talsa.so
        module_tmp\taccount.so
        module_app\tmenu.so
        module_app\tctrl_tcp.so
        ctrl_tcp_listen\t127.0.0.1:\(controlPort)
        statmode_default\toff
        ringback_disabled\tyes

        """
    }

    /// baresip's `accounts`: one account, no registration, incoming calls answered at once.
    var accounts: String {
        "<\(uri)>;regint=0;answermode=auto\n"
    }

    /// ALSA's `~/.asoundrc`: the `pulse` device redefined as the pulse plugin on the sandbox's
    /// server, with `handle_underrun false`. With the plugin's default, every underrun (the
    /// alsa module's 80 ms buffer runs dry whenever the machine is busy) makes it tear its
    /// stream down and connect a new one: on a loaded machine a call's sink input had a new
    /// index several times a second. Without it the server plays silence, as for any client.
    var asoundrc: String {
        """
        pcm.!pulse {
            type pulse
            server "\(serverAddress)"
            handle_underrun false
        }
        ctl.!pulse {
            type pulse
            server "\(serverAddress)"
        }

        """
    }
}
