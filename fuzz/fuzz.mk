### Fuzz targets, one per reader (fuzz/README.md).  Each target is linked
### twice: with replay.c for make check (tests/cli/t0600-fuzz-replay.sh runs
### it over its seed corpus and every crasher), and with libFuzzer when
### ./configure --enable-fuzz.
FUZZ_TARGETS = xspace json archive rules baseline hlo
FUZZ_CFLAGS = $(AM_CFLAGS) $(DEP_CFLAGS) -I$(top_srcdir)/fuzz
FUZZ_LDADD = libjaxprof.a libxplane-pb.a $(DEP_LIBS)
FUZZ_COMMON = fuzz/fuzz.h fuzz/common.c fuzz/shape.h fuzz/shape.c

check_PROGRAMS += fuzz/replay-xspace fuzz/replay-json fuzz/replay-archive \
	fuzz/replay-rules fuzz/replay-baseline fuzz/replay-hlo
fuzz_replay_xspace_SOURCES = fuzz/fuzz-xspace.c fuzz/replay.c $(FUZZ_COMMON)
fuzz_replay_xspace_CFLAGS = $(FUZZ_CFLAGS)
fuzz_replay_xspace_LDADD = $(FUZZ_LDADD)
fuzz_replay_json_SOURCES = fuzz/fuzz-json.c fuzz/replay.c $(FUZZ_COMMON)
fuzz_replay_json_CFLAGS = $(FUZZ_CFLAGS)
fuzz_replay_json_LDADD = $(FUZZ_LDADD)
fuzz_replay_archive_SOURCES = fuzz/fuzz-archive.c fuzz/replay.c $(FUZZ_COMMON)
fuzz_replay_archive_CFLAGS = $(FUZZ_CFLAGS)
fuzz_replay_archive_LDADD = $(FUZZ_LDADD)
fuzz_replay_rules_SOURCES = fuzz/fuzz-rules.c fuzz/replay.c $(FUZZ_COMMON)
fuzz_replay_rules_CFLAGS = $(FUZZ_CFLAGS)
fuzz_replay_rules_LDADD = $(FUZZ_LDADD)
fuzz_replay_baseline_SOURCES = fuzz/fuzz-baseline.c fuzz/replay.c \
	$(FUZZ_COMMON)
fuzz_replay_baseline_CFLAGS = $(FUZZ_CFLAGS)
fuzz_replay_baseline_LDADD = $(FUZZ_LDADD)
fuzz_replay_hlo_SOURCES = fuzz/fuzz-hlo.c fuzz/replay.c $(FUZZ_COMMON)
fuzz_replay_hlo_CFLAGS = $(FUZZ_CFLAGS)
fuzz_replay_hlo_LDADD = $(FUZZ_LDADD)

if ENABLE_FUZZ
noinst_PROGRAMS += fuzz/fuzz-xspace fuzz/fuzz-json fuzz/fuzz-archive \
	fuzz/fuzz-rules fuzz/fuzz-baseline fuzz/fuzz-hlo
fuzz_fuzz_xspace_SOURCES = fuzz/fuzz-xspace.c $(FUZZ_COMMON)
fuzz_fuzz_xspace_CFLAGS = $(FUZZ_CFLAGS)
fuzz_fuzz_xspace_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_LDFLAGS)
fuzz_fuzz_xspace_LDADD = $(FUZZ_LDADD)
fuzz_fuzz_json_SOURCES = fuzz/fuzz-json.c $(FUZZ_COMMON)
fuzz_fuzz_json_CFLAGS = $(FUZZ_CFLAGS)
fuzz_fuzz_json_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_LDFLAGS)
fuzz_fuzz_json_LDADD = $(FUZZ_LDADD)
fuzz_fuzz_archive_SOURCES = fuzz/fuzz-archive.c $(FUZZ_COMMON)
fuzz_fuzz_archive_CFLAGS = $(FUZZ_CFLAGS)
fuzz_fuzz_archive_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_LDFLAGS)
fuzz_fuzz_archive_LDADD = $(FUZZ_LDADD)
fuzz_fuzz_rules_SOURCES = fuzz/fuzz-rules.c $(FUZZ_COMMON)
fuzz_fuzz_rules_CFLAGS = $(FUZZ_CFLAGS)
fuzz_fuzz_rules_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_LDFLAGS)
fuzz_fuzz_rules_LDADD = $(FUZZ_LDADD)
fuzz_fuzz_baseline_SOURCES = fuzz/fuzz-baseline.c $(FUZZ_COMMON)
fuzz_fuzz_baseline_CFLAGS = $(FUZZ_CFLAGS)
fuzz_fuzz_baseline_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_LDFLAGS)
fuzz_fuzz_baseline_LDADD = $(FUZZ_LDADD)
fuzz_fuzz_hlo_SOURCES = fuzz/fuzz-hlo.c $(FUZZ_COMMON)
fuzz_fuzz_hlo_CFLAGS = $(FUZZ_CFLAGS)
fuzz_fuzz_hlo_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_LDFLAGS)
fuzz_fuzz_hlo_LDADD = $(FUZZ_LDADD)
endif

EXTRA_DIST += fuzz/README.md fuzz/jaxprof.dict fuzz/run fuzz/make-hostile.py \
	fuzz/corpus \
	fuzz/crashers
