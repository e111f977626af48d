#define _GNU_SOURCE
#include "ThreadPlacement.h"

#include <errno.h>
#include <sched.h>
#include <sys/resource.h>
#include <unistd.h>

int routekit_test_pin_thread(int cpu) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return sched_setaffinity(0, sizeof set, &set) == 0 ? 0 : errno;
}

int routekit_test_make_thread_idle_class(void) {
    struct sched_param parameters = { .sched_priority = 0 };
    return sched_setscheduler(0, SCHED_IDLE, &parameters) == 0 ? 0 : errno;
}

int routekit_test_thread_id(void) {
    return (int)gettid();
}

long routekit_test_voluntary_switches(void) {
    struct rusage usage;
    return getrusage(RUSAGE_THREAD, &usage) == 0 ? usage.ru_nvcsw : -1;
}
