#ifndef LOWBAND_CSLIRP_SHIM_H
#define LOWBAND_CSLIRP_SHIM_H
// libslirp from Debian's libslirp-dev: the user-mode TCP/IP stack of QEMU and rootless
// containers, linked as a library (`lowband shell` feeds it the namespace's frames).
#include <libslirp.h>
#endif
