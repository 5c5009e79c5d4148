#include "CLowbandCountedRegion.h"

__attribute__((noinline, disable_tail_calls))
void lowband_counted_region(void (*body)(void *context), void *context) {
    body(context);
    // Something after the call, so no compiler turns it into a jump.
    __asm__ volatile("" ::: "memory");
}
