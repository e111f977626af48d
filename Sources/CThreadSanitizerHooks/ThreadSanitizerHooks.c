#include "ThreadSanitizerHooks.h"

/* ThreadSanitizer's annotations (compiler-rt's tsan_interface.h), weak: they resolve only
 * when its runtime is linked, and are null otherwise. */
extern void __tsan_acquire(void *addr) __attribute__((weak));
extern void __tsan_release(void *addr) __attribute__((weak));

void routekit_lock_acquired(void *lock) {
    if (__tsan_acquire) __tsan_acquire(lock);
}

void routekit_lock_releasing(void *lock) {
    if (__tsan_release) __tsan_release(lock);
}
