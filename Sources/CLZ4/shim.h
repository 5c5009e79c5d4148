#ifndef LOWBAND_CLZ4_SHIM_H
#define LOWBAND_CLZ4_SHIM_H
// liblz4 from Debian's liblz4-dev: block API, high-compression API and frame API.
#include <lz4.h>
#include <lz4hc.h>
#include <lz4frame.h>
#endif
