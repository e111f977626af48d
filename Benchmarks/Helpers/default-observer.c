/*
 * default-observer: the outside observer of the floor comparison (Docs/Benchmarks.md,
 * "Against the floor"): a libpulse client of its own, beside every switcher, that stamps
 * what the server announces on one clock (CLOCK_MONOTONIC, nanoseconds).
 *
 *   PULSE_SERVER=unix:/path/native default-observer STREAMS
 *
 * It prints:
 *   ready                 once subscribed and the first default is read
 *   new INDEX NS          a sink's `new` event arrived
 *   remove INDEX NS       a sink's `remove` event arrived
 *   default NAME NS       the server's answer naming a new default sink (it reads the server
 *                         info after every `server` change event, as any client must)
 *   streams INDEX NS      with STREAMS > 0: the first listing with STREAMS sink inputs on the
 *                         newest new sink. It lists once at least STREAMS sink-input events
 *                         came since that sink appeared (a move announces each stream), then
 *                         after each further batch of events, so a listing costs once, not
 *                         once a stream.
 * It ends as pulse-helper.h says.
 */
#include "pulse-helper.h"
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Nanoseconds on the monotonic clock: every time this prints. */
static long long stamp(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (long long)now.tv_sec * 1000000000LL + now.tv_nsec;
}

static int expected_streams;
static char current_default[256];
static uint32_t newest_sink = PA_INVALID_INDEX;
static int stream_events;
static int streams_reported;
static int listing;
static int unseen;
static int ready_said;
static pa_defer_event *batch_end;

/* Prints "default NAME NS" when the answer names a default other than the last one. */
static void on_server_info(pa_context *context, const pa_server_info *info, void *userdata) {
    (void)context; (void)userdata;
    long long now = stamp();
    const char *name = info && info->default_sink_name ? info->default_sink_name : "";
    if (strcmp(name, current_default) != 0) {
        snprintf(current_default, sizeof current_default, "%s", name);
        if (ready_said) printf("default %s %lld\n", current_default, now);
    }
    if (!ready_said) {
        ready_said = 1;
        puts("ready");
    }
    fflush(stdout);
}

/* Counts the listed streams on the newest sink; lists again if events came meanwhile. */
static int on_newest;
static void on_sink_input(pa_context *context, const pa_sink_input_info *input, int eol, void *userdata) {
    (void)context; (void)userdata;
    if (!eol) {
        if (input && input->sink == newest_sink) on_newest++;
        return;
    }
    listing = 0;
    if (!streams_reported && on_newest >= expected_streams) {
        streams_reported = 1;
        printf("streams %u %lld\n", newest_sink, stamp());
        fflush(stdout);
    } else if (unseen) {
        helper_api->defer_enable(batch_end, 1);
    }
}

/* After a batch of events: lists the streams if it is time to. */
static void on_batch_end(pa_mainloop_api *api, pa_defer_event *event, void *userdata) {
    pa_context *context = userdata;
    api->defer_enable(event, 0);
    if (listing || streams_reported || newest_sink == PA_INVALID_INDEX || stream_events < expected_streams || !unseen)
        return;
    unseen = 0;
    listing = 1;
    on_newest = 0;
    pa_operation *operation = pa_context_get_sink_input_info_list(context, on_sink_input, NULL);
    if (operation) pa_operation_unref(operation);
}

/* Stamps sink events, reads the defaults after server events, counts stream events. */
static void on_event(pa_context *context, pa_subscription_event_type_t type, uint32_t index, void *userdata) {
    (void)userdata;
    long long now = stamp();
    pa_subscription_event_type_t kind = type & PA_SUBSCRIPTION_EVENT_TYPE_MASK;
    switch (type & PA_SUBSCRIPTION_EVENT_FACILITY_MASK) {
    case PA_SUBSCRIPTION_EVENT_SINK:
        if (kind == PA_SUBSCRIPTION_EVENT_NEW) {
            printf("new %u %lld\n", index, now);
            newest_sink = index;
            stream_events = 0;
            streams_reported = 0;
        } else if (kind == PA_SUBSCRIPTION_EVENT_REMOVE) {
            printf("remove %u %lld\n", index, now);
        }
        fflush(stdout);
        break;
    case PA_SUBSCRIPTION_EVENT_SERVER: {
        pa_operation *operation = pa_context_get_server_info(context, on_server_info, NULL);
        if (operation) pa_operation_unref(operation);
        break;
    }
    case PA_SUBSCRIPTION_EVENT_SINK_INPUT:
        if (expected_streams > 0 && kind != PA_SUBSCRIPTION_EVENT_REMOVE) {
            stream_events++;
            unseen = 1;
            helper_api->defer_enable(batch_end, 1);
        }
        break;
    default:
        break;
    }
}

/* Reads the first default once the subscription is in place. */
static void on_subscribed(pa_context *context, int success, void *userdata) {
    (void)userdata;
    if (!success) {
        puts("default-observer: the subscription failed");
        fflush(stdout);
        return;
    }
    pa_operation *operation = pa_context_get_server_info(context, on_server_info, NULL);
    if (operation) pa_operation_unref(operation);
}

/* Subscribes to sinks, streams and the server. */
static void on_ready(pa_context *context) {
    batch_end = helper_api->defer_new(helper_api, on_batch_end, context);
    helper_api->defer_enable(batch_end, 0);
    pa_context_set_subscribe_callback(context, on_event, NULL);
    pa_subscription_mask_t mask = PA_SUBSCRIPTION_MASK_SINK | PA_SUBSCRIPTION_MASK_SERVER;
    if (expected_streams > 0) mask |= PA_SUBSCRIPTION_MASK_SINK_INPUT;
    pa_operation *operation = pa_context_subscribe(context, mask, on_subscribed, NULL);
    if (operation) pa_operation_unref(operation);
}

int main(int argc, char **argv) {
    if (argc != 2 || atoi(argv[1]) < 0) {
        fprintf(stderr, "usage: default-observer STREAMS\n");
        return 64;
    }
    expected_streams = atoi(argv[1]);
    return helper_run("bench-default-observer", on_ready);
}
