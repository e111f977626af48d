/*
 * floor-switcher: the least a switcher outside the server can do, as the floor RouteKit is
 * measured against (Docs/Benchmarks.md, "Against the floor").
 *
 *   PULSE_SERVER=unix:/path/native floor-switcher FALLBACK
 *
 * On a new sink: one lookup by index and, if it is Bluetooth-like by the benchmark's
 * convention for virtual devices (`device.bus=bluetooth`, as its headsets are made), one
 * set-default-sink. On the removal of the sink it chose: one set-default-sink to FALLBACK.
 * Nothing else: no list, no state beyond the sink it chose, no stream moves (the server
 * moves the streams that follow the default).
 *
 * It prints "ready" once subscribed, and "switched NAME" / "fell back NAME" once the server
 * has answered each request (after the request went out: printing costs the switch
 * nothing). It ends as pulse-helper.h says.
 */
#include "pulse-helper.h"
#include <stdlib.h>
#include <string.h>

static const char *fallback;
static uint32_t chosen = PA_INVALID_INDEX;

/* Says what the server has done, once it answered. */
static void on_answered(pa_context *context, int success, void *userdata) {
    (void)context;
    char *line = userdata;
    if (success) {
        puts(line);
        fflush(stdout);
    }
    free(line);
}

/* Asks for `sink` as the default; `verb` names the switch in the report. */
static void set_default(pa_context *context, const char *verb, const char *sink) {
    size_t length = strlen(verb) + strlen(sink) + 2;
    char *line = malloc(length);
    snprintf(line, length, "%s %s", verb, sink);
    pa_operation *operation = pa_context_set_default_sink(context, sink, on_answered, line);
    if (operation) pa_operation_unref(operation);
}

/* The new sink's lookup: a Bluetooth one becomes the default. */
static void on_sink(pa_context *context, const pa_sink_info *sink, int eol, void *userdata) {
    (void)userdata;
    if (eol || !sink) return;
    const char *bus = pa_proplist_gets(sink->proplist, PA_PROP_DEVICE_BUS);
    if (!bus || strcmp(bus, "bluetooth") != 0) return;
    chosen = sink->index;
    set_default(context, "switched", sink->name);
}

/* A new sink is looked up; the chosen sink's removal falls back. */
static void on_event(pa_context *context, pa_subscription_event_type_t type, uint32_t index, void *userdata) {
    (void)userdata;
    if ((type & PA_SUBSCRIPTION_EVENT_FACILITY_MASK) != PA_SUBSCRIPTION_EVENT_SINK) return;
    switch (type & PA_SUBSCRIPTION_EVENT_TYPE_MASK) {
    case PA_SUBSCRIPTION_EVENT_NEW: {
        pa_operation *operation = pa_context_get_sink_info_by_index(context, index, on_sink, NULL);
        if (operation) pa_operation_unref(operation);
        break;
    }
    case PA_SUBSCRIPTION_EVENT_REMOVE:
        if (index == chosen) {
            chosen = PA_INVALID_INDEX;
            set_default(context, "fell back", fallback);
        }
        break;
    default:
        break;
    }
}

/* Says it is ready once the subscription is in place. */
static void on_subscribed(pa_context *context, int success, void *userdata) {
    (void)context; (void)userdata;
    puts(success ? "ready" : "floor-switcher: the subscription failed");
    fflush(stdout);
}

/* Subscribes to sink events. */
static void on_ready(pa_context *context) {
    pa_context_set_subscribe_callback(context, on_event, NULL);
    pa_operation *operation = pa_context_subscribe(context, PA_SUBSCRIPTION_MASK_SINK, on_subscribed, NULL);
    if (operation) pa_operation_unref(operation);
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: floor-switcher FALLBACK\n");
        return 64;
    }
    fallback = argv[1];
    return helper_run("bench-floor-switcher", on_ready);
}
