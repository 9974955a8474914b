/* What the CPU this process runs on does fast. */
#ifndef JAXPROF_CPU_H
#define JAXPROF_CPU_H

/*
 * 1 when PEXT (BMI2) is there and fast: Intel's, and AMD's from Zen 3
 * (family 19h) on; Zen 1 and 2 run it in microcode, tens of cycles.
 * Asked of the CPU once per process.
 */
int	cpu_fast_pext(void);

#endif
