/*
 * Shared by the fuzz targets (fuzz/README.md): each defines
 * LLVMFuzzerTestOneInput(), linked either with libFuzzer (./configure
 * --enable-fuzz) or with replay.c, which runs it once per file named on
 * its command line (make check replays the corpora and every crasher).
 */
#ifndef JAXPROF_FUZZ_H
#define JAXPROF_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * Writes data to this process's scratch file, whose name ends in suffix
 * (readers tell formats by name), and returns its path (static storage,
 * the same for every call with the same suffix).  Aborts on I/O failure.
 */
const char *fuzz_spool(const uint8_t *data, size_t size, const char *suffix);

#endif
