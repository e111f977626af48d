/* The least any D-Bus service on sd-bus can do for what dbus_bounds.py sends the daemon: one
 * thread, no state. `Status` answers an a{sv} built from constants, 27 entries (routectl
 * daemon's has 22); `Use(s)` and `SetPreferences(as)` read their strings (sd-bus checks each
 * one whole as it is read; no service can know a string's length sooner) and refuse one over
 * 256 bytes. dbus_bounds.py sends it the same floods and 64 MiB arguments as the daemon, so
 * the daemon's figures read as ratios to this floor.
 *
 *   floor-status-server        (serves io.github.routekit.RouteKit1 on the session bus; prints
 *                               "dbus: serving" once the name is owned, then runs until SIGTERM)
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <systemd/sd-bus.h>

#define NAME "io.github.routekit.RouteKit1"
#define PATH "/io/github/routekit/RouteKit1"

static volatile sig_atomic_t stopping;

static void stop(int signal) { (void)signal; stopping = 1; }

static int status(sd_bus_message *call, void *userdata, sd_bus_error *error) {
    (void)userdata; (void)error;
    sd_bus_message *reply = NULL;
    int r = sd_bus_message_new_method_return(call, &reply);
    if (r >= 0) r = sd_bus_message_open_container(reply, 'a', "{sv}");
    static const char *strings[][2] = {
        {"Route", "bt_headset"}, {"RouteKind", "bluetooth"}, {"Selection", ""}, {"DefaultAudio", ""},
        {"Microphone", "bt_headset_mic"}, {"Speaker", "auto"}, {"CallState", "none"},
        {"PreferencesOrigin", "commandLine"}, {"Silent", "unknown"}, {"ScreenLock", "unknown"},
        {"Server", "PulseAudio 16.1"}, {"ServerState", "ready"}, {"LastSwitchFailure", ""},
        {"LastChangeReason", "started"}, {"Input", "bt_headset_mic"}, {"InputKind", "bluetooth"},
    };
    for (size_t i = 0; r >= 0 && i < sizeof strings / sizeof strings[0]; i++)
        r = sd_bus_message_append(reply, "{sv}", strings[i][0], "s", strings[i][1]);
    static const char *flags[] = {"Connected", "CallAudio", "MicMuted", "SpeakerOn", "VolumeCapture",
                                  "MediaPausing", "HoldsMedia", "Ringing"};
    for (size_t i = 0; r >= 0 && i < sizeof flags / sizeof flags[0]; i++)
        r = sd_bus_message_append(reply, "{sv}", flags[i], "b", 0);
    if (r >= 0) r = sd_bus_message_append(reply, "{sv}", "Preferences", "as", 2, "bluetooth", "speakerphone");
    if (r >= 0) r = sd_bus_message_append(reply, "{sv}", "Calls", "as", 0);
    if (r >= 0) r = sd_bus_message_append(reply, "{sv}", "Devices", "as", 3, "bt_headset", "speaker", "earpiece");
    if (r >= 0) r = sd_bus_message_close_container(reply);
    if (r >= 0) r = sd_bus_send(NULL, reply, NULL);
    sd_bus_message_unref(reply);
    return r < 0 ? r : 1;
}

static int too_long(sd_bus_error *error) {
    return sd_bus_error_set(error, NAME ".Error.LimitExceeded", "at most 256 bytes");
}

static int use(sd_bus_message *call, void *userdata, sd_bus_error *error) {
    (void)userdata;
    const char *device = NULL;
    int r = sd_bus_message_read(call, "s", &device);
    if (r < 0) return r;
    if (strlen(device) > 256) return too_long(error);
    return sd_bus_reply_method_return(call, "s", device);
}

static int set_preferences(sd_bus_message *call, void *userdata, sd_bus_error *error) {
    (void)userdata;
    int r = sd_bus_message_enter_container(call, 'a', "s");
    const char *entry = NULL;
    while (r >= 0 && (r = sd_bus_message_read(call, "s", &entry)) > 0)
        if (strlen(entry) > 256) return too_long(error);
    if (r < 0) return r;
    return sd_bus_reply_method_return(call, "");
}

static const sd_bus_vtable vtable[] = {
    SD_BUS_VTABLE_START(0),
    SD_BUS_METHOD("Status", "", "a{sv}", status, 0),
    SD_BUS_METHOD("Use", "s", "s", use, 0),
    SD_BUS_METHOD("SetPreferences", "as", "", set_preferences, 0),
    SD_BUS_VTABLE_END,
};

int main(void) {
    sd_bus *bus = NULL;
    signal(SIGTERM, stop);
    signal(SIGINT, stop);
    int r = sd_bus_open_user(&bus);
    if (r < 0) { fprintf(stderr, "floor-status-server: no bus: %s\n", strerror(-r)); return 1; }
    r = sd_bus_add_object_vtable(bus, NULL, PATH, NAME, vtable, NULL);
    if (r >= 0) r = sd_bus_request_name(bus, NAME, 0);
    if (r < 0) { fprintf(stderr, "floor-status-server: %s\n", strerror(-r)); return 1; }
    fprintf(stderr, "dbus: serving %s (the floor)\n", NAME);
    while (!stopping) {
        r = sd_bus_process(bus, NULL);
        if (r < 0) break;
        if (r > 0) continue;
        r = sd_bus_wait(bus, 100000);
        if (r < 0 && r != -EINTR) break;
    }
    sd_bus_flush_close_unref(bus);
    return 0;
}
