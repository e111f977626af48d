import DumpReader
import Foundation
import PulseAudio
import RouteKit
import Testing

@Suite("Dump: PipeWire tools")
struct PipeWireDumpTests {
    @Test("pw-cli ls Node: sinks, sources and other nodes by media.class")
    func pwCliList() throws {
        let text = """
            \tid 30, type PipeWire:Interface:Node/3
             \t\tobject.serial = "30"
             \t\tnode.name = "Dummy-Driver"
            \tid 31, type PipeWire:Interface:Port/3
             \t\tport.name = "playback_FL"
            \tid 52, type PipeWire:Interface:Node/3
             \t\tnode.description = "Built-in Audio Digital Microphone"
             \t\tnode.name = "alsa_input.pci-0000_00_1f.3.HiFi__Mic1__source"
             \t\tmedia.class = "Audio/Source"
            \tid 60, type PipeWire:Interface:Node/3
             \t\tnode.name = "alsa_output.pci-0000_00_1f.3.HiFi__Speaker__sink"
             \t\tnode.nick = "Speaker"
             \t\tmedia.class = "Audio/Sink"
             \t\tdevice.id = "42"
            \tid 70, type PipeWire:Interface:Node/3
             \t\tnode.name = "Firefox"
             \t\tmedia.class = "Stream/Output/Audio"
            """
        let dump = try ServerDump.parse(text)
        #expect(dump.sinks.map(\.index) == [60] && dump.sinks.first?.description == "Speaker")
        #expect(dump.sinks.first?.card == 42 && dump.sinks.first?.driver == "PipeWire")
        #expect(dump.sources.map(\.name) == ["alsa_input.pci-0000_00_1f.3.HiFi__Mic1__source"])
        #expect(dump.sources.first?.description == "Built-in Audio Digital Microphone")
        #expect(dump.otherNodes.map { $0["node.name"] } == ["Dummy-Driver", "Firefox"])
        #expect(dump.otherNodes.first?["object.id"] == "30")
    }

    @Test("wpctl inspect and pw-cli info: starred keys, quoted state")
    func inspect() throws {
        let text = """
            id 77, type PipeWire:Interface:Node
                api.bluez5.profile = "a2dp-sink"
              * media.class = "Audio/Sink"
              * node.name = "bluez_output.00_11_22_33_44_55.1"
              * node.description = "WH-1000XM4"
            \tid: 78
            \tpermissions: rwxm
            \ttype: PipeWire:Interface:Node/3
            \tstate: "idle"
            \tproperties:
            *\t\tmedia.class = "Audio/Source/Virtual"
            \t\tnode.name = "echo-cancel-source"
            """
        let dump = try ServerDump.parse(text)
        #expect(dump.sinks.map(\.name) == ["bluez_output.00_11_22_33_44_55.1"])
        #expect(dump.sinks.first?.description == "WH-1000XM4" && dump.sinks.first?.index == 77)
        #expect(dump.sinks.first?.properties["api.bluez5.profile"] == "a2dp-sink")
        #expect(dump.sources.map(\.name) == ["echo-cancel-source"])
        #expect(dump.sources.first?.index == 78 && dump.sources.first?.state == .idle)
    }

    /// A small but complete pw-dump: a card with profiles and routes, its sink node with
    /// volume and mute, a driver node, and the default metadata (values as JSON strings, as
    /// older PipeWire prints them).
    static let pwDump = """
        [
          { "id": 0, "type": "PipeWire:Interface:Core", "info": { "name": "pipewire-0" } },
          {
            "id": 42, "type": "PipeWire:Interface:Device",
            "info": {
              "props": { "device.name": "alsa_card.pci-0000_00_1f.3", "media.class": "Audio/Device",
                         "device.api": "alsa", "device.description": "Built-in Audio", "object.id": 42 },
              "params": {
                "EnumProfile": [
                  { "index": 0, "name": "off", "description": "Off", "available": "yes", "priority": 0, "classes": [ 0 ] },
                  { "index": 1, "name": "output:analog-stereo", "description": "Analog Stereo Output",
                    "available": "yes", "priority": 6500,
                    "classes": [ 1, [ "Audio/Sink", 1, "card.profile.devices", [ 4 ] ] ] }
                ],
                "Profile": [ { "index": 1, "name": "output:analog-stereo" } ],
                "EnumRoute": [
                  { "index": 0, "direction": "Output", "name": "analog-output-speaker", "description": "Speakers",
                    "priority": 10000, "available": "unknown",
                    "info": [ 2, "port.type", "speaker", "port.availability-group", "Legacy 3" ],
                    "profiles": [ 1 ], "devices": [ 4 ] },
                  { "index": 1, "direction": "Output", "name": "analog-output-headphones", "description": "Headphones",
                    "priority": 9900, "available": "yes",
                    "info": [ 1, "port.type", "headphones" ], "profiles": [ 1 ], "devices": [ 4 ] },
                  { "index": 2, "direction": "Input", "name": "analog-input-mic", "description": "Microphone",
                    "priority": 8700, "available": "no", "info": [ 0 ], "profiles": [ ], "devices": [ 5 ] }
                ],
                "Route": [ { "index": 1, "direction": "Output", "device": 4, "name": "analog-output-headphones" } ]
              }
            }
          },
          {
            "id": 55, "type": "PipeWire:Interface:Node",
            "info": {
              "state": "running",
              "props": { "node.name": "alsa_output.pci-0000_00_1f.3.analog-stereo", "media.class": "Audio/Sink",
                         "node.description": "Built-in Audio Analog Stereo", "device.id": 42,
                         "card.profile.device": 4, "audio.position": [ "FL", "FR" ] },
              "params": { "Props": [ { "mute": true, "channelVolumes": [ 0.125, 0.125 ] } ] }
            }
          },
          { "id": 30, "type": "PipeWire:Interface:Node", "info": { "props": { "node.name": "Dummy-Driver" } } },
          {
            "id": 33, "type": "PipeWire:Interface:Metadata", "props": { "metadata.name": "default" },
            "metadata": [
              { "subject": 0, "key": "default.audio.sink", "type": "Spa:String:JSON",
                "value": "{\\"name\\":\\"alsa_output.pci-0000_00_1f.3.analog-stereo\\"}" },
              { "subject": 0, "key": "default.configured.audio.sink", "type": "Spa:String:JSON",
                "value": { "name": "alsa_output.usb-Foo-00.analog-stereo" } }
            ]
          }
        ]
        """

    @Test("pw-dump: devices become cards, their routes the ports of their nodes")
    func pwDump() throws {
        let dump = try ServerDump.parse(Self.pwDump)
        let card = try #require(dump.cards.first)
        #expect(card.index == 42 && card.name == "alsa_card.pci-0000_00_1f.3" && card.driver == "PipeWire")
        #expect(card.profiles.map(\.name) == ["off", "output:analog-stereo"])
        #expect(card.profiles.map(\.sinkCount) == [0, 1])
        #expect(card.activeProfileName == "output:analog-stereo")
        #expect(card.ports.map(\.availability) == [.unknown, .available, .unavailable])
        #expect(card.ports.map(\.type) == [.speaker, .headphones, .unknown])
        #expect(card.ports.map(\.direction) == [.output, .output, .input])
        #expect(card.ports[0].availabilityGroup == "Legacy 3" && card.ports[0].profileNames == ["output:analog-stereo"])

        let sink = try #require(dump.sinks.first)
        #expect(sink.index == 55 && sink.state == .running && sink.isMuted)
        #expect(sink.volume.values == [32768, 32768])
        #expect(sink.properties["audio.position"] == #"["FL","FR"]"#)
        #expect(sink.properties["device.id"] == "42")
        #expect(sink.ports.map(\.name) == ["analog-output-speaker", "analog-output-headphones"])
        #expect(sink.activePortName == "analog-output-headphones")

        #expect(dump.otherNodes.map { $0["node.name"] } == ["Dummy-Driver"])
        #expect(dump.defaultSinkName == "alsa_output.pci-0000_00_1f.3.analog-stereo")
        #expect(dump.configuredDefaultSinkName == "alsa_output.usb-Foo-00.analog-stereo")
    }

    @Test("a pw-dump cut off in the middle keeps what came before the cut")
    func truncated() throws {
        let cut = Self.pwDump.components(separatedBy: "\"Route\": [")[0]
        let dump = try ServerDump.parse(cut + "\n  {\n    \"id\": 55,\n    \"type\": \"PipeWire:Interface:Node\",\n"
                                        + "    \"info\": {\n      \"props\": {\n        \"node.name\": \"half\",\n")
        #expect(dump.cards.map(\.ports.count) == [3])
        #expect(dump.otherNodes.map { $0["node.name"] } == ["half"])
    }

    @Test("node property objects as other tools print them")
    func propertyObjects() throws {
        let text = """
            sink: ({
                "id": 116,
                "name": "bluez_output.F4:29:67:BA:9A:5E",
                "description":
                "Nokia WHP-101",
                "properties": { "media.class": "Audio/Sink", "bluez5.sink-loopback": "true" },
                "audio": { "muted": true, "volume": 0.85 }
            })
            {"media.class": "Audio/Source", "node.name": "alsa_input.usb-mic", "object.id": "9"}
            """
        let dump = try ServerDump.parse(text)
        #expect(dump.sinks.map(\.name) == ["bluez_output.F4:29:67:BA:9A:5E"])
        #expect(dump.sinks.first?.description == "Nokia WHP-101" && dump.sinks.first?.isMuted == true)
        #expect(dump.sinks.first?.index == 116 && dump.sinks.first?.properties["object.id"] == "116")
        #expect(dump.sources.map(\.index) == [9])
    }

    @Test("pactl --format=json: sinks, sources, cards, info")
    func pactlJSON() throws {
        let text = """
            [{"index":0,"state":"SUSPENDED","name":"alsa_output.x.analog-stereo","description":"Built-in",
              "driver":"PipeWire","owner_module":4294967295,"mute":false,
              "volume":{"front-left":{"value":39322,"value_percent":"60%","db":"-13.31 dB"},
                        "front-right":{"value":39322,"value_percent":"60%","db":"-13.31 dB"}},
              "base_volume":{"value":65536,"value_percent":"100%","db":"0.00 dB"},
              "monitor_source":"alsa_output.x.analog-stereo.monitor","properties":{"device.bus":"pci"},
              "ports":[{"name":"analog-output-headphones","description":"Headphones","type":"Headphones",
                        "priority":9900,"availability_group":"Legacy 2","availability":"not available"}],
              "active_port":"analog-output-headphones","formats":["pcm"]},
             {"index":1,"state":"RUNNING","name":"alsa_output.x.analog-stereo.monitor","description":"Monitor",
              "driver":"PipeWire","owner_module":4294967295,"mute":false,"volume":{},"base_volume":{"value":65536},
              "monitor_source":"alsa_output.x.analog-stereo","properties":{"device.class":"monitor"},
              "ports":[],"active_port":null}]
            [{"index":3,"name":"alsa_card.x","driver":"alsa","owner_module":null,"properties":{"device.bus":"pci"},
              "profiles":{"off":{"description":"Off","sinks":0,"sources":0,"priority":0,"available":true},
                          "HiFi":{"description":"Play HiFi quality Music","sinks":2,"sources":1,"priority":8000,"available":true}},
              "active_profile":"HiFi",
              "ports":{"[Out] Speaker":{"description":"Speaker","type":"Speaker","priority":100,
                       "latency_offset":"0 usec","availability_group":null,"availability":"availability unknown",
                       "properties":{},"profiles":["HiFi"]}}}]
            {"server_name":"PulseAudio (on PipeWire 1.0.5)","default_sink_name":"alsa_output.x.analog-stereo",
             "default_source_name":"alsa_input.x.analog-stereo"}
            """
        let dump = try ServerDump.parse(text)
        #expect(dump.sinks.map(\.name) == ["alsa_output.x.analog-stereo"])
        let sink = try #require(dump.sinks.first)
        #expect(sink.volume.values == [39322, 39322] && sink.ownerModule == nil && sink.state == .suspended)
        #expect(sink.ports == [DevicePort(name: "analog-output-headphones", description: "Headphones", priority: 9900,
                                          availability: .unavailable, type: .headphones, availabilityGroup: "Legacy 2")])
        #expect(dump.sources.first?.monitorOfSinkName == "alsa_output.x.analog-stereo")
        let card = try #require(dump.cards.first)
        #expect(card.index == 3 && card.profiles.map(\.name) == ["off", "HiFi"] && card.activeProfileName == "HiFi")
        #expect(card.ports.first?.type == .speaker && card.ports.first?.direction == .output)
        #expect(card.ports.first?.profileNames == ["HiFi"])
        #expect(dump.defaultSinkName == "alsa_output.x.analog-stereo")
        #expect(dump.defaultSourceName == "alsa_input.x.analog-stereo")
    }
}
