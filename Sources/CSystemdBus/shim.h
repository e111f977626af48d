#ifndef ROUTEKIT_CSYSTEMDBUS_SHIM_H
#define ROUTEKIT_CSYSTEMDBUS_SHIM_H

#include <systemd/sd-bus.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <pthread.h>
#include <malloc.h>

/* glibc declares pthread_setname_np only under _GNU_SOURCE, which a module header cannot
 * count on; this is its declaration (glibc >= 2.12). */
extern int pthread_setname_np(pthread_t thread, const char *name);

/* Names the calling thread (at most 15 bytes), as `top -H` and gdb show it. */
static inline void routekit_name_thread(const char *name) {
    pthread_setname_np(pthread_self(), name);
}

/* sd-bus reads each incoming message whole into one buffer of its size. glibc's default
 * allocator then raises its mmap threshold to the largest block freed (up to 32 MiB) and keeps
 * up to twice that of freed heap, so one big message (a session client's 64 MiB argument,
 * refused) left a daemon 9 to 22 MiB larger for good. Fixed thresholds (which also turn the
 * raising off) give blocks of 256 KiB and more a mapping of their own, unmapped when freed,
 * and trim the heap when more than 1 MiB at its top is free. */
static inline void routekit_return_large_blocks(void) {
    mallopt(M_MMAP_THRESHOLD, 256 * 1024);
    mallopt(M_TRIM_THRESHOLD, 1024 * 1024);
}

/* sd_bus_vtable is a struct with an 8-bit and a 56-bit bit-field followed by a union, and
 * systemd documents it as "do not initialize this structure directly, use the macros". The
 * macros are compound literals Swift cannot import, so these helpers apply them, here in C,
 * where the layout, the element size and the vtable format reference stay systemd's own. The
 * strings must outlive the registration: sd-bus keeps the pointers. */

static inline sd_bus_vtable routekit_bus_vtable_start(void) {
    sd_bus_vtable entry = SD_BUS_VTABLE_START(0);
    return entry;
}

/* `names` is the in-argument names then the out-argument names, each ended by a NUL. */
static inline sd_bus_vtable routekit_bus_vtable_method(const char *member, const char *signature,
                                                       const char *result, const char *names,
                                                       sd_bus_message_handler_t handler) {
    sd_bus_vtable entry = SD_BUS_METHOD_WITH_NAMES_OFFSET(member, signature, "", result, "", handler, 0, 0);
    entry.x.method.names = names;
    return entry;
}

/* `names` is the argument names, each ended by a NUL. */
static inline sd_bus_vtable routekit_bus_vtable_signal(const char *member, const char *signature,
                                                       const char *names) {
    sd_bus_vtable entry = SD_BUS_SIGNAL_WITH_NAMES(member, signature, "", 0);
    entry.x.signal.names = names;
    return entry;
}

/* A read-only property whose changes are announced with PropertiesChanged. */
static inline sd_bus_vtable routekit_bus_vtable_property(const char *member, const char *signature,
                                                         sd_bus_property_get_t getter) {
    sd_bus_vtable entry = SD_BUS_PROPERTY(member, signature, getter, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE);
    return entry;
}

static inline sd_bus_vtable routekit_bus_vtable_end(void) {
    sd_bus_vtable entry = SD_BUS_VTABLE_END;
    return entry;
}

#endif
