// libFuzzer's entry for programs that have their own `main` (LLVM 11+): it parses the libFuzzer
// flags in argv and runs `callback` on each input. Defined in libclang_rt.fuzzer, which
// `-sanitize=fuzzer` links.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
