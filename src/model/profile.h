/*
 * The normalized stream every profile reader emits: space, then for each
 * plane its lines, then for each line its events.  Consumers (the index
 * builder, the Chrome-trace writer, tests) implement struct pf_handler and
 * know nothing of the file format behind it.
 *
 * Ownership: everything a callback receives is borrowed from the reader and
 * valid only during that callback, except the plane's metadata tables
 * (struct pf_plane and the struct pf_event_meta it holds), which stay valid
 * from plane_begin until plane_end returns.
 */
#ifndef JAXPROF_PROFILE_H
#define JAXPROF_PROFILE_H

#include <stddef.h>
#include <stdint.h>

/* Bytes that are not NUL-terminated (they may point into the input). */
struct pf_bytes {
	const char	*ptr;
	size_t		 len;
};

enum pf_value_kind {
	PF_NONE,			/* stat with no value set */
	PF_DOUBLE,
	PF_UINT64,
	PF_INT64,
	PF_STR,
	PF_BYTES,
	PF_REF,				/* string stored by reference */
};

/*
 * Stat names consumers look for, resolved once per plane by the reader so
 * the per-event lookups compare integers, not strings.
 */
enum pf_key {
	PF_KEY_OTHER,
	PF_KEY_BYTES_ACCESSED,
	PF_KEY_DEVICE_DURATION_PS,
	PF_KEY_DEVICE_OFFSET_PS,
	PF_KEY_FLOPS,
	PF_KEY_GROUP_ID,
	PF_KEY_HLO_CATEGORY,
	PF_KEY_HLO_MODULE,
	PF_KEY_HLO_OP,
	PF_KEY_IS_ROOT,			/* "_r" */
	PF_KEY_KERNEL_DETAILS,
	PF_KEY_MEMCPY_DETAILS,
	PF_KEY_MEMSET_DETAILS,		/* "Memset_details" */
	PF_KEY_NAME,			/* "name": an XLA annotation's op */
	PF_KEY_PROFILE_START_TIME,
	PF_KEY_PROGRAM_ID,
	PF_KEY_RUN_ID,
	PF_KEY_STEP_NUM,
	PF_KEY_TF_OP,
	PF_KEY_CORRELATION_ID,		/* one CUDA graph launch's kernels share it */
	PF_KEY_CUDA_GRAPH_ID,
	PF_KEY_SCOPE_RANGE_ID,		/* one per thunk run (op run) */
	/*
	 * Any stat of an allocator's MemoryAllocation/MemoryDeallocation
	 * events (pf_memory_stat()): a few hundred events a profile, read
	 * by name, so one key keeps them without a key each.
	 */
	PF_KEY_MEMORY,
	PF_NKEYS,
};

struct pf_stat {
	int64_t		 metadata_id;
	const char	*name;		/* "" when the metadata id is unknown */
	enum pf_key	 key;		/* the name, when it is a known one */
	enum pf_value_kind kind;
	union {
		double	 d;
		uint64_t u;		/* PF_UINT64, and the id of PF_REF */
		int64_t	 i;
	} num;
	struct pf_bytes	 str;		/* PF_STR, PF_BYTES, resolved PF_REF */
};

struct pf_event_meta {
	int64_t		 id;
	uint32_t	 index;		/* dense 0..nmetas-1 within the plane */
	const char	*name;
	const char	*display_name;	/* "" when unset */
	struct pf_bytes	 metadata;
	const struct pf_stat *stats;
	size_t		 nstats;
	const int64_t	*child_ids;
	size_t		 nchild_ids;
};

struct pf_space {
	const char	*path;		/* the file, as given */
	char	**hostnames;
	size_t	  nhostnames;
	char	**errors;
	size_t	  nerrors;
	char	**warnings;
	size_t	  nwarnings;
	size_t	  nplanes;
};

struct pf_lines_ahead;

struct pf_plane {
	int64_t		 id;
	const char	*name;
	const struct pf_stat *stats;
	size_t		 nstats;
	size_t		 nlines;
	/*
	 * Event metadata, in the order of their map entries; an event whose
	 * metadata id is missing points to metas[nmetas], an empty entry.
	 */
	const struct pf_event_meta *metas;
	size_t		 nmetas;
	/* Its lines, to look ahead at; NULL where the reader cannot. */
	const struct pf_lines_ahead *ahead;
};

struct pf_line {
	int64_t		 id;
	int64_t		 display_id;
	const char	*name;
	const char	*display_name;	/* "" when unset */
	int64_t		 timestamp_ns;
	int64_t		 duration_ps;
	size_t		 nevents;
};

struct pf_event {
	const struct pf_event_meta *meta;
	/*
	 * meta->index, given apart: per-metadata tables are indexed by it
	 * per event, and reading it from a plane of many thousand metadata
	 * would be a cache miss each time.
	 */
	uint32_t	 meta_index;
	int64_t		 metadata_id;
	int		 aggregated;	/* num_occurrences set instead of offset */
	int64_t		 offset_ps;
	int64_t		 num_occurrences;
	int64_t		 duration_ps;
	int64_t		 start_ps;	/* line timestamp_ns * 1000 + offset_ps */
	const struct pf_stat *stats;
	size_t		 nstats;
};

/*
 * Callbacks; any may be NULL.  A non-zero return stops the reader, which
 * then returns that value, except PF_SKIP from plane_begin or line_begin:
 * the reader then passes over that plane's lines or that line's events
 * without decoding them (and calls no plane_end or line_end for it).
 */
#define PF_SKIP	0x736b6970
/*
 * A plane's lines as a reader that can look ahead (the XSpace reader)
 * knows them before the first: names and event counts in file order.
 * read_events() gives line i's events to h->event only (the handler's
 * other callbacks are not called), as they will come in turn; it may be
 * called from the plane's plane_begin, line_begin and line_end callbacks.
 * It returns 0, h's first non-zero value, or -1 for events that cannot
 * be read (why is told when the line's turn comes).
 */
struct pf_handler;

/* A plane's lines that are not empty (an empty one has no name or event). */
struct pf_lines_ahead {
	size_t		 nlines;
	char *const	*names;		/* pf_line.name */
	const size_t	*nevents;
	const size_t	*at;		/* the line's number in its plane */
	int	(*read_events)(const struct pf_lines_ahead *a, size_t i,
		    const struct pf_handler *h);
};

struct pf_handler {
	void	*ctx;
	/*
	 * Set by a handler that looks at event stats by key only: a reader
	 * may then leave out the event stats whose key is PF_KEY_OTHER
	 * (never metadata or plane stats), and does where that is cheaper.
	 */
	int	 keyed_stats_only;
	/*
	 * With keyed_stats_only, set by a handler that reads the allocators'
	 * stats (PF_KEY_MEMORY); without it a reader may leave those out too.
	 */
	int	 memory_stats;
	int	(*space)(void *ctx, const struct pf_space *space);
	int	(*plane_begin)(void *ctx, const struct pf_plane *plane);
	int	(*line_begin)(void *ctx, const struct pf_plane *plane,
		    const struct pf_line *line);
	int	(*event)(void *ctx, const struct pf_plane *plane,
		    const struct pf_line *line, const struct pf_event *event);
	int	(*line_end)(void *ctx, const struct pf_plane *plane,
		    const struct pf_line *line);
	int	(*plane_end)(void *ctx, const struct pf_plane *plane);
};

/* Counts of tolerated defects, filled by a reader. */
struct pf_read_stats {
	uint64_t	missing_event_metadata;	/* events named "" */
	uint64_t	missing_stat_metadata;	/* stats named "" */
	uint64_t	bytes;			/* uncompressed input size */
};

/* The key of a stat name (PF_KEY_OTHER when it is not a known one). */
enum pf_key	 pf_key_of(const char *name);
/*
 * Which allocator stat a PF_KEY_MEMORY stat's name is: an index in
 * PF_MEMORY_STATS order, or -1 for another name.
 */
#define PF_MEMORY_STATS \
	"allocator_name", "bytes_allocated", "bytes_reserved", \
	"bytes_available", "peak_bytes_in_use", "requested_bytes", \
	"allocation_bytes", "addr", "region_type", "data_type", "shape", \
	"fragmentation", "index_on_host", "device_ordinal", "tensor_shapes"
int		pf_memory_stat(const char *name);
/* The stat with that key among stats, or NULL. */
const struct pf_stat *pf_stat_find(const struct pf_stat *stats, size_t n,
	    enum pf_key key);
/* The event's stat, falling back to its metadata's; NULL if neither has it. */
const struct pf_stat *pf_event_stat(const struct pf_event *ev,
	    enum pf_key key);
/* Integer value of an int, uint or double stat; 0 if none. */
int		pf_stat_int(const struct pf_stat *st, int64_t *out);
/* String value of a str or ref stat; 0 if it is not a string. */
int		pf_stat_str(const struct pf_stat *st, struct pf_bytes *out);
/* The display name of an event: metadata display_name, else name. */
const char	*pf_event_name(const struct pf_event *ev);

#endif
