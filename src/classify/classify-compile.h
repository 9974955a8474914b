/* Compile work: autotuning marked in a file's summary (classify-compile.c). */
#ifndef JAXPROF_CLASSIFY_COMPILE_H
#define JAXPROF_CLASSIFY_COMPILE_H

#include "model/file-summary.h"

void		mark_compile_work(struct file_summary *fs);

#endif
