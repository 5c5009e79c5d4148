#ifndef LOWBAND_COUNTED_REGION_H
#define LOWBAND_COUNTED_REGION_H

/// Calls `body(context)` and nothing else: the one function `lowband codecs compare` asks
/// valgrind's callgrind to count (`--toggle-collect`) and to dump a profile after
/// (`--dump-after`), so each call is one operation's instructions and allocations.
///
/// In C, so that its symbol is this plain name in any build (a Swift function's is mangled and
/// may be specialised into several copies) and it is never inlined or left by a tail call
/// (callgrind would then see the operation outside it).
void lowband_counted_region(void (*body)(void *context), void *context);

#endif
