import DumpReader
import PulseAudio
import RouteKit
import Testing

@Suite("Dump: localised pactl")
struct LocalizedPactlDumpTests {
    /// `pactl list cards` + `pactl list sinks` + `pactl list sources` as PulseAudio 17 prints
    /// them under LANG=de_DE (strings from PulseAudio's po/de.po).
    static let german = """
        Karte #0
        \tName: alsa_card.pci-0000_00_1f.3
        \tTreiber: module-alsa-card.c
        \tOwner-Modul: 7
        \tEigenschaften:
        \t\tdevice.description = "Eingebautes Tonsystem"
        \t\tdevice.bus = "pci"
        \tProfile:
        \t\toff: Aus (Ziele: 0, Quellen: 0, Priorität: 0, verfügbar: ja)
        \t\toutput:analog-stereo+input:analog-stereo: Analog Stereo Duplex (Ziele: 1, Quellen: 1, Priorität: 6565, verfügbar: ja)
        \t\toutput:hdmi-stereo: Digital Stereo (HDMI) Ausgabe (Ziele: 1, Quellen: 0, Priorität: 5900, verfügbar: nein)
        \tAktives Profil: output:analog-stereo+input:analog-stereo
        \tPorts:
        \t\tanalog-output-speaker: Lautsprecher (Typ: Lautsprecher, Priorität: 10000, Latenzversatz: 0 usec, Verfügbarkeitsgruppe: Legacy 3, Verfügbarkeit unbekannt)
        \t\t\tEigenschaften:
        \t\t\t\tport.type = "speaker"
        \t\t\tTeil der/des Profil(s): output:analog-stereo+input:analog-stereo
        \t\tanalog-output-headphones: Kopfhörer (Typ: Kopfhörer, Priorität: 9900, Latenzversatz: 0 usec, Verfügbarkeitsgruppe: Legacy 4, verfügbar)
        \t\t\tTeil der/des Profil(s): output:analog-stereo+input:analog-stereo
        \t\tanalog-input-mic: Mikrofon (Typ: Mikro, Priorität: 8700, Latenzversatz: 0 usec, nicht verfügbar)
        \t\t\tTeil der/des Profil(s): output:analog-stereo+input:analog-stereo

        Ziel #47
        \tStatus: RUNNING
        \tName: alsa_output.pci-0000_00_1f.3.analog-stereo
        \tBeschreibung: Eingebautes Tonsystem Analog Stereo
        \tTreiber: module-alsa-card.c
        \tAbtastwert-Angabe: s16le 2ch 44100Hz
        \tKanalzuordnung: front-left,front-right
        \tBesitzer-Modul: 7
        \tStumm: ja
        \tLautstärke: front-left: 32768 /  50% / -18,06 dB,   front-right: 32768 /  50% / -18,06 dB
        \t        Verteilung 0,00
        \tBasis-Lautstärke: 65536 / 100% / 0,00 dB
        \tQuellen-Monitor: alsa_output.pci-0000_00_1f.3.analog-stereo.monitor
        \tLatenz: 0 usec, eingestellt 0 usec
        \tFlags: HARDWARE HW_MUTE_CTRL HW_VOLUME_CTRL DECIBEL_VOLUME LATENCY
        \tEigenschaften:
        \t\tdevice.class = "sound"
        \tPorts:
        \t\tanalog-output-speaker: Lautsprecher (Typ: Lautsprecher, Priorität: 10000, Verfügbarkeitsgruppe: Legacy 3, nicht verfügbar)
        \t\tanalog-output-headphones: Kopfhörer (Typ: Kopfhörer, Priorität: 9900, Verfügbarkeitsgruppe: Legacy 4, verfügbar)
        \tAktiver Port: analog-output-headphones
        \tFormate:
        \t\tpcm

        Quelle #48
        \tStatus: SUSPENDED
        \tName: alsa_output.pci-0000_00_1f.3.analog-stereo.monitor
        \tBeschreibung: Monitor of Eingebautes Tonsystem Analog Stereo
        \tTreiber: module-alsa-card.c
        \tBesitzer-Modul: 7
        \tStumm: nein
        \tLautstärke: front-left: 65536 / 100% / 0,00 dB,   front-right: 65536 / 100% / 0,00 dB
        \tZiel-Monitor: alsa_output.pci-0000_00_1f.3.analog-stereo
        \tEigenschaften:
        \t\tdevice.class = "monitor"

        Quelle #49
        \tStatus: IDLE
        \tName: alsa_input.pci-0000_00_1f.3.analog-stereo
        \tBeschreibung: Eingebautes Tonsystem Analog Stereo
        \tTreiber: module-alsa-card.c
        \tBesitzer-Modul: 7
        \tStumm: nein
        \tLautstärke: front-left: 65536 / 100% / 0,00 dB,   front-right: 65536 / 100% / 0,00 dB
        \tZiel-Monitor: k. A.
        \tEigenschaften:
        \t\tdevice.class = "sound"

        Ziel-Eingabe #12
        \tTreiber: protocol-native.c
        \tOwner-Modul: 10
        \tZiel: 47
        \tEigenschaften:
        \t\tmedia.name = "Wiedergabe"
        """

    @Test("German pactl: cards, sinks and sources with their ports and profiles")
    func german() throws {
        let dump = try ServerDump.parse(Self.german)
        #expect(dump.cards.count == 1 && dump.sinks.count == 1 && dump.sources.count == 2)

        let card = try #require(dump.cards.first)
        #expect(card.index == 0 && card.name == "alsa_card.pci-0000_00_1f.3")
        #expect(card.driver == "module-alsa-card.c" && card.ownerModule == 7)
        #expect(card.properties["device.description"] == "Eingebautes Tonsystem")
        #expect(card.profiles.map(\.name) == ["off", "output:analog-stereo+input:analog-stereo", "output:hdmi-stereo"])
        #expect(card.profiles[1] == CardInfo.Profile(name: "output:analog-stereo+input:analog-stereo",
                                                     description: "Analog Stereo Duplex", sinkCount: 1,
                                                     sourceCount: 1, priority: 6565, isAvailable: true))
        #expect(card.profiles[2].isAvailable == false && card.profiles[2].description == "Digital Stereo (HDMI) Ausgabe")
        #expect(card.activeProfileName == "output:analog-stereo+input:analog-stereo")
        #expect(card.ports.map(\.availability) == [.unknown, .available, .unavailable])
        #expect(card.ports.map(\.type) == [.speaker, .headphones, .mic])
        #expect(card.ports.map(\.direction) == [.output, .output, .input])
        #expect(card.ports[0].availabilityGroup == "Legacy 3" && card.ports[0].priority == 10000)
        #expect(card.ports[0].properties == ["port.type": "speaker"])
        #expect(card.ports[0].profileNames == ["output:analog-stereo+input:analog-stereo"])

        let sink = try #require(dump.sinks.first)
        #expect(sink.index == 47 && sink.name == "alsa_output.pci-0000_00_1f.3.analog-stereo")
        #expect(sink.description == "Eingebautes Tonsystem Analog Stereo" && sink.driver == "module-alsa-card.c")
        #expect(sink.state == .running && sink.isMuted && sink.ownerModule == 7)
        #expect(sink.volume.values == [32768, 32768] && sink.baseVolume == ChannelVolumes.normal)
        #expect(sink.monitorSourceName == "alsa_output.pci-0000_00_1f.3.analog-stereo.monitor")
        #expect(sink.ports.map(\.availability) == [.unavailable, .available])
        #expect(sink.activePortName == "analog-output-headphones")

        #expect(dump.sources[0].monitorOfSinkName == "alsa_output.pci-0000_00_1f.3.analog-stereo")
        #expect(dump.sources[0].state == .suspended && !dump.sources[0].isMuted)
        #expect(dump.sources[1].monitorOfSinkName == nil && !dump.sources[1].isMonitor)
    }

    @Test("French pactl: no-break spaces before the colons")
    func french() throws {
        let nbsp = "\u{00A0}"
        let text = """
            Destination #1
            \tÉtat\(nbsp): SUSPENDED
            \tNom\(nbsp): alsa_output.usb-Logitech_G35-00.analog-stereo
            \tDescription\(nbsp): Casque G35 Stéréo analogique
            \tPilote\(nbsp): module-alsa-card.c
            \tModule du propriétaire\(nbsp): 9
            \tSourdine\(nbsp): oui
            \tVolume\(nbsp): front-left: 45875 /  70% / -9,29 dB,   front-right: 45875 /  70% / -9,29 dB
            \t        balance 0,00
            \tSource du moniteur\(nbsp): alsa_output.usb-Logitech_G35-00.analog-stereo.monitor
            \tPropriétés\(nbsp):
            \t\tdevice.form_factor = "headset"
            \tPorts\(nbsp):
            \t\tanalog-output: Sortie analogique (type: Casque, priority: 9900, availability unknown)
            \tPort actif\(nbsp): analog-output
            """
        let sink = try #require(try ServerDump.parse(text).sinks.first)
        #expect(sink.name == "alsa_output.usb-Logitech_G35-00.analog-stereo")
        #expect(sink.description == "Casque G35 Stéréo analogique")
        #expect(sink.isMuted && sink.ownerModule == 9 && sink.volume.values == [45875, 45875])
        #expect(sink.monitorSourceName == "alsa_output.usb-Logitech_G35-00.analog-stereo.monitor")
        #expect(sink.properties == ["device.form_factor": "headset"])
        #expect(sink.ports == [DevicePort(name: "analog-output", description: "Sortie analogique", priority: 9900,
                                          availability: .unknown, type: .headset, availabilityGroup: nil)])
        #expect(sink.activePortName == "analog-output")
    }

    @Test("Chinese pactl: full-width colons and commas")
    func chinese() throws {
        let text = """
            卡 #1
            \t名称：alsa_card.usb-C-Media_USB_Headphone_Set-00
            \t驱动：module-alsa-card.c
            \t拥有者模块：24
            \t属性：
            \t\tdevice.form_factor = "headset"
            \t配置文件：
            \t\toutput:analog-stereo: 模拟立体声输出 (信宿：1，信源：0，优先级：6500，可用性：是)
            \t\toff: 关 (信宿：0，信源：0，优先级：0，可用性：否)
            \t活动配置：output:analog-stereo
            \t端口：
            \t\tanalog-output-headphones: 模拟耳机 (type: 模拟耳机, priority: 9900, latency offset: 0 usec, available)
            \t\t\t属于配置文件：output:analog-stereo
            信宿 #2
            \t状态：RUNNING
            \t名称：alsa_output.usb-C-Media_USB_Headphone_Set-00.analog-stereo
            \t描述：USB Headphone Set 模拟立体声
            \t静音：是
            \t音量：front-left: 65536 / 100% / 0.00 dB,   front-right: 65536 / 100% / 0.00 dB
            \t监视器信源：alsa_output.usb-C-Media_USB_Headphone_Set-00.analog-stereo.monitor
            \t端口：
            \t\tanalog-output-headphones: 模拟耳机 (type: 模拟耳机, priority: 9900, available)
            \t活动端口：analog-output-headphones
            """
        let dump = try ServerDump.parse(text)
        let card = try #require(dump.cards.first)
        #expect(card.name == "alsa_card.usb-C-Media_USB_Headphone_Set-00" && card.ownerModule == 24)
        #expect(card.profiles.map(\.sinkCount) == [1, 0] && card.profiles.map(\.isAvailable) == [true, false])
        #expect(card.activeProfileName == "output:analog-stereo")
        #expect(card.ports.first?.type == .headphones && card.ports.first?.profileNames == ["output:analog-stereo"])
        let sink = try #require(dump.sinks.first)
        #expect(sink.isMuted && sink.state == .running && sink.description == "USB Headphone Set 模拟立体声")
        #expect(sink.ports.first?.availability == .available && sink.activePortName == "analog-output-headphones")
    }

    @Test("Russian, Czech and Hungarian headings: №, č. and number-first")
    func headingForms() throws {
        let text = """
            Аудиоприёмник №3
            \tИмя: alsa_output.a.analog-stereo
            Zdroj č. 4
            \tNázev: alsa_input.b.analog-stereo
            5. kártya
            \tNév: alsa_card.c
            """
        let dump = try ServerDump.parse(text)
        #expect(dump.sinks.map(\.index) == [3] && dump.sources.map(\.index) == [4] && dump.cards.map(\.index) == [5])
        #expect(dump.cards.first?.name == "alsa_card.c")
    }

    @Test("a language no catalogue has: structure and property keys decide")
    func unknownLanguage() throws {
        let text = """
            Qagh #3
            \tPIv: IDLE
            \tpong: alsa_output.usb-Foo_Bar-00.analog-stereo
            \tDel: Foo Bar Analog Stereo
            \tjan: module-alsa-card.c
            \tmI': 12
            \tjoq: ghobe'
            \twab: front-left: 52428 /  80% / -5,81 dB,   front-right: 52428 /  80% / -5,81 dB
            \tbIng wab: 65536 / 100% / 0,00 dB
            \tQIp: alsa_output.usb-Foo_Bar-00.analog-stereo.monitor
            \tDochmey:
            \t\tdevice.form_factor = "headset"
            \tlojmItmey:
            \t\tanalog-output: Analog Output (Segh: Analog, ghap: 9900, Dotlh: Legacy 1, DaH Sovbe')
            \t\tanalog-output-headphones: Headphones (Segh: Headphones, ghap: 9800, Dotlh: Legacy 2, DaH Sovbe')
            \tQap lojmIt: analog-output-headphones

            Qagh #4
            \tPIv: SUSPENDED
            \tpong: combined
            \tDel: Simultaneous output
            \tQIp: combined.monitor

            Chaq #7
            \tpong: alsa_card.usb-Foo_Bar-00
            \tjan: module-alsa-card.c
            \tmI': 12
            \tDochmey:
            \t\tdevice.bus = "usb"
            \tSeQ:
            \t\toutput:analog-stereo: Analog Stereo Output (wa': 1, cha': 0, wej: 6500, loS: ja)
            \t\toff: Off (wa': 0, cha': 0, wej: 0, loS: nein)
            \tSeQ Qap: output:analog-stereo
            \tlojmItmey:
            \t\tanalog-output: Analog Output (Segh: Analog, ghap: 9900, DaH Sovbe')
            \t\t\tvIt: output:analog-stereo
            """
        let dump = try ServerDump.parse(text)
        #expect(dump.sinks.map(\.name) == ["alsa_output.usb-Foo_Bar-00.analog-stereo", "combined"])
        let sink = dump.sinks[0]
        #expect(sink.index == 3 && sink.state == .idle && sink.description == "Foo Bar Analog Stereo")
        #expect(sink.driver == "module-alsa-card.c" && sink.ownerModule == 12)
        #expect(sink.volume.values == [52428, 52428] && sink.baseVolume == 65536)
        #expect(sink.monitorSourceName == "alsa_output.usb-Foo_Bar-00.analog-stereo.monitor")
        #expect(sink.properties == ["device.form_factor": "headset"])
        #expect(sink.ports.map(\.name) == ["analog-output", "analog-output-headphones"])
        #expect(sink.ports.map(\.type) == [.analog, .headphones])
        #expect(sink.ports.map(\.priority) == [9900, 9800])
        #expect(sink.ports.map(\.availabilityGroup) == ["Legacy 1", "Legacy 2"])
        #expect(sink.ports.map(\.availability) == [.unknown, .unknown])
        #expect(sink.activePortName == "analog-output-headphones")

        let card = try #require(dump.cards.first)
        #expect(card.index == 7 && card.name == "alsa_card.usb-Foo_Bar-00")
        #expect(card.driver == "module-alsa-card.c" && card.ownerModule == 12)
        #expect(card.properties == ["device.bus": "usb"])
        #expect(card.profiles.map(\.sinkCount) == [1, 0] && card.profiles.map(\.priority) == [6500, 0])
        #expect(card.profiles.map(\.isAvailable) == [true, false])
        #expect(card.activeProfileName == "output:analog-stereo")
        #expect(card.ports.map(\.name) == ["analog-output"])
        #expect(card.ports.first?.profileNames == ["output:analog-stereo"])
        #expect(card.ports.first?.direction == .output)
    }
}
