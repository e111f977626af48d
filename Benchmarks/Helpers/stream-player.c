/*
 * stream-player: plays silence to one sink on COUNT playback streams of ONE connection.
 *
 *   PULSE_SERVER=unix:/path/native stream-player SINK COUNT [RATE [FORMAT]]
 *
 * route-benchmarks needs hundreds of playing streams, and PulseAudio accepts at most 64
 * native-protocol connections (MAX_CONNECTIONS in pulsecore/protocol-native.c), so one
 * `pacat` per stream ends at about 60. This is `pacat --playback --raw --device=SINK
 * /dev/zero` COUNT times over, in one process: every stream is an ordinary client stream
 * (a sink input that may be moved), uncorked and fed with silence. FORMAT is `s16le`
 * (the default, PulseAudio's null sink) or `float32le` (pipewire-pulse's).
 *
 * It prints "ready COUNT" once every stream is playing, and exits when standard input
 * reaches end of file (its parent went away), when the connection fails, or on SIGTERM.
 * The benchmark compiles it with `cc -O2 stream-player.c -lpulse` at run time.
 */
#include "pulse-helper.h"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static pa_mainloop *mainloop;
static const char *sink_name;
static int stream_count;
static int ready_count;
static int opened_count;
static pa_context *connection;
static pa_buffer_attr attributes;
static pa_sample_spec spec;
static char silence[65536];

/* Fills whatever the server asks for with silence. */
static void on_writable(pa_stream *stream, size_t length, void *userdata) {
    (void)userdata;
    while (length > 0) {
        size_t chunk = length < sizeof silence ? length : sizeof silence;
        if (pa_stream_write(stream, silence, chunk, NULL, 0, PA_SEEK_RELATIVE) < 0) {
            fprintf(stderr, "stream-player: write failed: %s\n",
                    pa_strerror(pa_context_errno(pa_stream_get_context(stream))));
            pa_mainloop_quit(mainloop, 1);
            return;
        }
        length -= chunk;
    }
}

/* Opens streams until `in_flight` are connecting at once or all are open. Servers that
 * link streams slowly (WirePlumber takes longer the more streams there are) time out a
 * stream that waits too long; a few at a time, none waits long. */
static void open_more(void);

/* Counts streams as they start playing, opening the next ones; any failure ends the program. */
static void on_stream_state(pa_stream *stream, void *userdata) {
    (void)userdata;
    switch (pa_stream_get_state(stream)) {
    case PA_STREAM_READY:
        if (++ready_count == stream_count) {
            printf("ready %d\n", ready_count);
            fflush(stdout);
        }
        open_more();
        break;
    case PA_STREAM_FAILED:
        fprintf(stderr, "stream-player: stream failed after %d were ready: %s\n", ready_count,
                pa_strerror(pa_context_errno(pa_stream_get_context(stream))));
        pa_mainloop_quit(mainloop, 1);
        break;
    default:
        break;
    }
}

static void open_more(void) {
    const int in_flight = 16;
    while (opened_count < stream_count && opened_count - ready_count < in_flight) {
        char name[64];
        snprintf(name, sizeof name, "bench-stream-%d", opened_count);
        pa_stream *stream = pa_stream_new(connection, name, &spec, NULL);
        if (!stream) {
            fprintf(stderr, "stream-player: pa_stream_new: %s\n", pa_strerror(pa_context_errno(connection)));
            pa_mainloop_quit(mainloop, 1);
            return;
        }
        pa_stream_set_state_callback(stream, on_stream_state, NULL);
        pa_stream_set_write_callback(stream, on_writable, NULL);
        if (pa_stream_connect_playback(stream, sink_name, &attributes, PA_STREAM_NOFLAGS, NULL, NULL) < 0) {
            fprintf(stderr, "stream-player: connect: %s\n", pa_strerror(pa_context_errno(connection)));
            pa_mainloop_quit(mainloop, 1);
            return;
        }
        opened_count++;
    }
}

/* Starts opening streams once the connection is ready. */
static void on_context_state(pa_context *context, void *userdata) {
    (void)userdata;
    switch (pa_context_get_state(context)) {
    case PA_CONTEXT_READY:
        /* Half a second of buffer: few wake-ups, and 500 streams still fit the shared pool. */
        attributes = (pa_buffer_attr){
            .maxlength = (uint32_t)-1,
            .tlength = (uint32_t)pa_usec_to_bytes(500 * PA_USEC_PER_MSEC, &spec),
            .prebuf = (uint32_t)-1,
            .minreq = (uint32_t)-1,
            .fragsize = (uint32_t)-1,
        };
        open_more();
        break;
    case PA_CONTEXT_FAILED:
    case PA_CONTEXT_TERMINATED:
        fprintf(stderr, "stream-player: connection ended: %s\n", pa_strerror(pa_context_errno(context)));
        pa_mainloop_quit(mainloop, 1);
        break;
    default:
        break;
    }
}

int main(int argc, char **argv) {
    if (argc < 3 || atoi(argv[2]) <= 0) {
        fprintf(stderr, "usage: stream-player SINK COUNT [RATE [s16le|float32le]]\n");
        return 64;
    }
    sink_name = argv[1];
    stream_count = atoi(argv[2]);
    spec.rate = argc > 3 ? (uint32_t)atoi(argv[3]) : 44100;
    spec.channels = 2;
    spec.format = argc > 4 && strcmp(argv[4], "float32le") == 0 ? PA_SAMPLE_FLOAT32LE : PA_SAMPLE_S16LE;

    mainloop = pa_mainloop_new();
    pa_mainloop_api *api = pa_mainloop_get_api(mainloop);
    pa_signal_init(api);
    pa_signal_new(SIGTERM, helper_on_signal, NULL);
    signal(SIGPIPE, SIG_IGN);
    api->io_new(api, STDIN_FILENO, PA_IO_EVENT_INPUT | PA_IO_EVENT_HANGUP, helper_on_input, NULL);

    pa_proplist *properties = pa_proplist_new();
    pa_proplist_sets(properties, PA_PROP_APPLICATION_NAME, "bench-stream-player");
    connection = pa_context_new_with_proplist(api, "bench-stream-player", properties);
    pa_proplist_free(properties);
    pa_context_set_state_callback(connection, on_context_state, NULL);
    if (pa_context_connect(connection, NULL, PA_CONTEXT_NOAUTOSPAWN, NULL) < 0) {
        fprintf(stderr, "stream-player: pa_context_connect: %s\n", pa_strerror(pa_context_errno(connection)));
        return 69;
    }
    int status = 0;
    pa_mainloop_run(mainloop, &status);
    pa_context_set_state_callback(connection, NULL, NULL);
    pa_context_disconnect(connection);
    pa_context_unref(connection);
    pa_signal_done();
    pa_mainloop_free(mainloop);
    return status;
}
