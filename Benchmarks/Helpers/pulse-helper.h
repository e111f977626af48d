/*
 * pulse-helper.h: the frame the benchmark's small libpulse clients share: one connection on
 * libpulse's plain main loop, ended by SIGTERM or by standard input reaching end of file
 * (the benchmark went away). Each helper supplies what to do once the connection is ready.
 */
#ifndef PULSE_HELPER_H
#define PULSE_HELPER_H

#include <pulse/pulseaudio.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

/* Standard input closed or readable: the parent is gone or wants us gone. */
static inline void helper_on_input(pa_mainloop_api *api, pa_io_event *event, int fd, pa_io_event_flags_t flags, void *userdata) {
    (void)event; (void)flags; (void)userdata;
    char buffer[64];
    if (read(fd, buffer, sizeof buffer) <= 0)
        api->quit(api, 0);
}

/* SIGTERM ends the program cleanly. */
static inline void helper_on_signal(pa_mainloop_api *api, pa_signal_event *event, int signal, void *userdata) {
    (void)event; (void)signal; (void)userdata;
    api->quit(api, 0);
}

/* The helper's work once the connection is ready. */
typedef void (*helper_ready_cb)(pa_context *context);

static helper_ready_cb helper_ready;
static const char *helper_name;
/* The main loop's API, for helpers that add events of their own. */
static pa_mainloop_api *helper_api;

/* Hands the ready connection to the helper; a failed connection ends the program. */
static inline void helper_on_state(pa_context *context, void *userdata) {
    pa_mainloop_api *api = userdata;
    switch (pa_context_get_state(context)) {
    case PA_CONTEXT_READY:
        helper_ready(context);
        break;
    case PA_CONTEXT_FAILED:
    case PA_CONTEXT_TERMINATED:
        fprintf(stderr, "%s: connection ended: %s\n", helper_name, pa_strerror(pa_context_errno(context)));
        api->quit(api, 1);
        break;
    default:
        break;
    }
}

/* Connects as `name` (to $PULSE_SERVER), calls `ready` once connected, and runs the loop
 * until the end; returns the exit status. */
static inline int helper_run(const char *name, helper_ready_cb ready) {
    helper_name = name;
    helper_ready = ready;
    pa_mainloop *mainloop = pa_mainloop_new();
    pa_mainloop_api *api = pa_mainloop_get_api(mainloop);
    helper_api = api;
    pa_signal_init(api);
    pa_signal_new(SIGTERM, helper_on_signal, NULL);
    signal(SIGPIPE, SIG_IGN);
    api->io_new(api, STDIN_FILENO, PA_IO_EVENT_INPUT | PA_IO_EVENT_HANGUP, helper_on_input, NULL);
    pa_proplist *properties = pa_proplist_new();
    pa_proplist_sets(properties, PA_PROP_APPLICATION_NAME, name);
    pa_context *context = pa_context_new_with_proplist(api, name, properties);
    pa_proplist_free(properties);
    pa_context_set_state_callback(context, helper_on_state, api);
    if (pa_context_connect(context, NULL, PA_CONTEXT_NOAUTOSPAWN, NULL) < 0) {
        fprintf(stderr, "%s: pa_context_connect: %s\n", name, pa_strerror(pa_context_errno(context)));
        return 69;
    }
    int status = 0;
    pa_mainloop_run(mainloop, &status);
    pa_context_set_state_callback(context, NULL, NULL);
    pa_context_disconnect(context);
    pa_context_unref(context);
    pa_signal_done();
    pa_mainloop_free(mainloop);
    return status;
}

#endif
