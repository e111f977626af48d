#ifndef ROUTEKIT_CPULSEAUDIO_SHIM_H
#define ROUTEKIT_CPULSEAUDIO_SHIM_H

#include <pulse/pulseaudio.h>
#include <string.h>
#include <sys/eventfd.h> /* wakes libpulse's loop thread for LoopThreadExecutor */

/* pa_cvolume keeps its channels in a fixed C array, which Swift imports as a 32-element
 * tuple. These two helpers copy it to and from a flat buffer so that Swift never has to
 * index the tuple. */

static inline void routekit_cvolume_get(const pa_cvolume *volume, uint32_t *values, unsigned count) {
    unsigned n = volume->channels < count ? volume->channels : count;
    for (unsigned i = 0; i < n; i++) values[i] = volume->values[i];
}

static inline int routekit_cvolume_set(pa_cvolume *volume, const uint32_t *values, unsigned count) {
    if (count == 0 || count > PA_CHANNELS_MAX) return -1;
    pa_cvolume_init(volume);
    volume->channels = (uint8_t)count;
    for (unsigned i = 0; i < count; i++) volume->values[i] = values[i];
    return pa_cvolume_valid(volume) ? 0 : -1;
}

#endif
