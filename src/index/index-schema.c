/* The index's schema (index-schema.h; documented in jaxprof(1)). */
#include "config.h"

#include <stdio.h>

#include "index/index-schema.h"

/* The columns and joins of the views (below). */
#define COLS_SQL(t) \
	"f.run, f.host, p.name AS device, " t ".file_id, " t ".plane, "
#define JOIN_SQL(t) " JOIN files f ON f.id = " t ".file_id " \
	"JOIN planes p ON p.id = " t ".plane"

static const char *const schema[] = {
	"CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)",
	"CREATE TABLE files("
	    "id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE, "
	    "kind TEXT NOT NULL, run TEXT NOT NULL, host TEXT NOT NULL, "
	    "size INTEGER NOT NULL, mtime_ns INTEGER NOT NULL, "
	    "hostname TEXT, planes INTEGER, lines INTEGER, events INTEGER, "
	    "start_ps INTEGER, end_ps INTEGER, profile_start_ns INTEGER, "
	    "op_source TEXT, errors TEXT, warnings TEXT, "
	    "missing_metadata INTEGER, indexed_at INTEGER, "
	    "event_rows INTEGER NOT NULL DEFAULT 0, "
	    "memory_rows INTEGER NOT NULL DEFAULT 0)",
	"CREATE TABLE planes("
	    "id INTEGER PRIMARY KEY, file_id INTEGER NOT NULL, "
	    "plane_id INTEGER, name TEXT NOT NULL, kind TEXT NOT NULL, "
	    "lines INTEGER, events INTEGER, start_ps INTEGER, end_ps INTEGER, "
	    "peak_gflops REAL, peak_gbps REAL, device_model TEXT, "
	    "peak_source TEXT, peak_fp8_gflops REAL, peak_bf16_gflops REAL, "
	    "peak_tf32_gflops REAL, peak_fp32_gflops REAL, "
	    "peak_fp64_gflops REAL, peak_int8_gflops REAL, "
	    "profile_gflops REAL, profile_gbps REAL)",
	"CREATE TABLE ops("
	    "file_id INTEGER NOT NULL, plane INTEGER NOT NULL, "
	    "name TEXT NOT NULL, module TEXT NOT NULL, category TEXT NOT NULL, "
	    "count INTEGER, total_ps INTEGER, self_ps INTEGER, "
	    "min_ps INTEGER, max_ps INTEGER, flops INTEGER, "
	    "bytes_accessed INTEGER, framework_op TEXT, source TEXT, "
	    "source_function TEXT, parent TEXT, "
	    "compile_work INTEGER NOT NULL DEFAULT 0, precision TEXT)",
	"CREATE TABLE kernels("
	    "file_id INTEGER NOT NULL, plane INTEGER NOT NULL, "
	    "name TEXT NOT NULL, op TEXT, count INTEGER, total_ps INTEGER, "
	    "min_ps INTEGER, max_ps INTEGER, "
	    "compile_work INTEGER NOT NULL DEFAULT 0, details TEXT, "
	    "module TEXT, category TEXT, source TEXT, framework_op TEXT)",
	"CREATE TABLE modules("
	    "file_id INTEGER NOT NULL, plane INTEGER NOT NULL, "
	    "name TEXT NOT NULL, program_id INTEGER, count INTEGER, "
	    "total_ps INTEGER, min_ps INTEGER, max_ps INTEGER, "
	    "device_ps INTEGER, compile_work INTEGER NOT NULL DEFAULT 0)",
	"CREATE TABLE steps("
	    "file_id INTEGER NOT NULL, plane INTEGER NOT NULL, "
	    "source TEXT NOT NULL, step INTEGER, name TEXT, "
	    "start_ps INTEGER, dur_ps INTEGER, compute_ps INTEGER, "
	    "collective_ps INTEGER, transfer_ps INTEGER, idle_ps INTEGER)",
	"CREATE TABLE compiles("
	    "id INTEGER PRIMARY KEY, file_id INTEGER NOT NULL, "
	    "plane INTEGER NOT NULL, line TEXT, name TEXT NOT NULL, "
	    "function TEXT, start_ps INTEGER, dur_ps INTEGER, "
	    "autotune_ps INTEGER NOT NULL DEFAULT 0)",
	"CREATE TABLE compile_phases("
	    "file_id INTEGER NOT NULL, compile INTEGER NOT NULL, "
	    "name TEXT NOT NULL, start_ps INTEGER, dur_ps INTEGER)",
	"CREATE TABLE gaps("
	    "file_id INTEGER NOT NULL, plane INTEGER NOT NULL, "
	    "start_ps INTEGER, dur_ps INTEGER)",
	"CREATE TABLE scopes("
	    "file_id INTEGER NOT NULL, plane INTEGER NOT NULL, "
	    "path TEXT NOT NULL, name TEXT NOT NULL, depth INTEGER, "
	    "count INTEGER, total_ps INTEGER, self_ps INTEGER)",
	"CREATE TABLE programs("
	    "file_id INTEGER NOT NULL, module TEXT NOT NULL, "
	    "program_id INTEGER)",
	"CREATE TABLE transfer_totals("
	    "file_id INTEGER NOT NULL, plane INTEGER NOT NULL, "
	    "direction TEXT NOT NULL, on_host INTEGER NOT NULL, "
	    "count INTEGER, bytes INTEGER, dur_ps INTEGER, rated_ps INTEGER, "
	    "rated_count INTEGER, wait_ps INTEGER, "
	    "compile_work INTEGER NOT NULL DEFAULT 0)",
	"CREATE TABLE run_totals("
	    "run TEXT NOT NULL, device TEXT NOT NULL, kernels INTEGER NOT NULL, "
	    "compile_work INTEGER NOT NULL, name TEXT NOT NULL, "
	    "module TEXT NOT NULL, category TEXT, count INTEGER, "
	    "total_ps INTEGER, self_ps INTEGER, min_ps INTEGER, "
	    "max_ps INTEGER, flops INTEGER, bytes_accessed INTEGER, "
	    "framework_op TEXT, source TEXT, source_function TEXT, "
	    "details TEXT, hlo_op TEXT, precision TEXT)",
	"CREATE TABLE step_collectives("
	    "file_id INTEGER NOT NULL, plane INTEGER NOT NULL, "
	    "step INTEGER NOT NULL, name TEXT NOT NULL, "
	    "occurrence INTEGER NOT NULL, start_ps INTEGER, dur_ps INTEGER)",
	"CREATE TABLE step_annotations("
	    "file_id INTEGER NOT NULL, plane INTEGER NOT NULL, "
	    "step INTEGER NOT NULL, name TEXT NOT NULL, count INTEGER, "
	    "dur_ps INTEGER)",
	"CREATE TABLE stale_runs(run TEXT PRIMARY KEY)",
	/* A run's planes of one name (run-totals.c): no scan of them all. */
	"CREATE INDEX planes_file ON planes(file_id, name)",
	"CREATE INDEX run_totals_run ON run_totals(run, kernels)",
	"CREATE INDEX ops_file ON ops(file_id, plane)",
	"CREATE INDEX kernels_file ON kernels(file_id, plane)",
	"CREATE INDEX modules_file ON modules(file_id)",
	"CREATE INDEX steps_file ON steps(file_id)",
	"CREATE INDEX step_collectives_file ON step_collectives(file_id)",
	"CREATE INDEX step_annotations_file ON step_annotations(file_id)",
	/* The step around a time on a plane (idle, transfers): no scan. */
	"CREATE INDEX steps_plane ON steps(plane, start_ps)",
	"CREATE INDEX compiles_file ON compiles(file_id)",
	"CREATE INDEX transfer_totals_file ON transfer_totals(file_id)",
	"CREATE INDEX compile_phases_file ON compile_phases(file_id)",
	"CREATE INDEX gaps_file ON gaps(file_id)",
	"CREATE INDEX scopes_file ON scopes(file_id)",
	"CREATE INDEX programs_file ON programs(file_id)",
	/*
	 * The joins everyone writes: each row with its run, host and device,
	 * times in microseconds (documented in jaxprof(1)).  An index of
	 * another version is rebuilt by dropping its tables: its views go
	 * here.
	 */
	"DROP VIEW IF EXISTS v_ops", "DROP VIEW IF EXISTS v_kernels",
	"DROP VIEW IF EXISTS v_modules", "DROP VIEW IF EXISTS v_steps",
	"DROP VIEW IF EXISTS v_executions", "DROP VIEW IF EXISTS v_transfers",
	"CREATE VIEW v_ops AS SELECT " COLS_SQL("o")
	    "o.name, o.module, o.category, o.count, "
	    "o.total_ps / 1e6 AS total_us, o.self_ps / 1e6 AS self_us, "
	    "o.min_ps / 1e6 AS min_us, o.max_ps / 1e6 AS max_us, o.flops, "
	    "o.bytes_accessed, o.framework_op, o.source, o.source_function, "
	    "o.parent, o.compile_work FROM ops o" JOIN_SQL("o"),
	"CREATE VIEW v_kernels AS SELECT " COLS_SQL("k")
	    "k.name, k.op, k.count, k.total_ps / 1e6 AS total_us, "
	    "k.min_ps / 1e6 AS min_us, k.max_ps / 1e6 AS max_us "
	    "FROM kernels k" JOIN_SQL("k"),
	"CREATE VIEW v_modules AS SELECT " COLS_SQL("m")
	    "m.name, m.program_id, m.count, m.total_ps / 1e6 AS total_us, "
	    "m.min_ps / 1e6 AS min_us, m.max_ps / 1e6 AS max_us, "
	    "m.device_ps / 1e6 AS device_us, m.compile_work "
	    "FROM modules m" JOIN_SQL("m"),
	"CREATE VIEW v_steps AS SELECT " COLS_SQL("s")
	    "s.source, s.step, s.name, s.start_ps / 1e6 AS start_us, "
	    "s.dur_ps / 1e6 AS dur_us, s.compute_ps / 1e6 AS compute_us, "
	    "s.collective_ps / 1e6 AS collective_us, "
	    "s.transfer_ps / 1e6 AS transfer_us, s.idle_ps / 1e6 AS idle_us "
	    "FROM steps s" JOIN_SQL("s"),
};

/*
 * The event-level tables, made when a command first reads them
 * (index_want_events()): rows per host event, program execution, copy
 * and HLO instruction cost a cold report more than all the others.
 */
static const char *const event_schema[] = {
	"CREATE TABLE executions("
	    "file_id INTEGER NOT NULL, plane INTEGER NOT NULL, "
	    "module TEXT NOT NULL, program_id INTEGER, run_id INTEGER, "
	    "start_ps INTEGER, dur_ps INTEGER, device_ps INTEGER, "
	    "compile_work INTEGER NOT NULL DEFAULT 0)",
	"CREATE INDEX executions_file ON executions(file_id)",
	"CREATE TABLE transfers("
	    "file_id INTEGER NOT NULL, plane INTEGER NOT NULL, line TEXT, "
	    "name TEXT NOT NULL, direction TEXT NOT NULL, "
	    "on_host INTEGER NOT NULL, bytes INTEGER, start_ps INTEGER, "
	    "dur_ps INTEGER, compile_work INTEGER NOT NULL DEFAULT 0)",
	"CREATE INDEX transfers_file ON transfers(file_id)",
	"CREATE VIEW v_transfers AS SELECT " COLS_SQL("t")
	    "t.line, t.name, t.direction, t.on_host, t.bytes, "
	    "t.start_ps / 1e6 AS start_us, t.dur_ps / 1e6 AS dur_us "
	    "FROM transfers t" JOIN_SQL("t"),
	"CREATE VIEW v_executions AS SELECT " COLS_SQL("e")
	    "e.module, e.program_id, e.run_id, e.start_ps / 1e6 AS start_us, "
	    "e.dur_ps / 1e6 AS dur_us, e.device_ps / 1e6 AS device_us, "
	    "e.compile_work FROM executions e" JOIN_SQL("e"),
	"CREATE TABLE host_events("
	    "file_id INTEGER NOT NULL, plane INTEGER NOT NULL, line TEXT, "
	    "name TEXT NOT NULL, depth INTEGER, start_ps INTEGER, "
	    "dur_ps INTEGER)",
	"CREATE TABLE hlo_instructions("
	    "file_id INTEGER NOT NULL, program_id INTEGER, "
	    "module TEXT NOT NULL, computation TEXT, name TEXT NOT NULL, "
	    "id INTEGER, opcode TEXT, category TEXT, fusion_kind TEXT, "
	    "custom_call_target TEXT, op_name TEXT, op_type TEXT, "
	    "source_file TEXT, source_line INTEGER, source_function TEXT, "
	    "schedule_index INTEGER)",
	"CREATE INDEX host_events_file ON host_events(file_id)",
	/*
	 * By file alone: no report looks instructions up, and a key of
	 * (file_id, module, name) costs a profile whose rows are mostly
	 * its programs' HLO (bench/RESULTS.md).  A join on (module, name)
	 * in `jaxprof sql` gets SQLite's automatic index.
	 */
	"CREATE INDEX hlo_instructions_file ON hlo_instructions(file_id)",
};

/*
 * The memory tables, made when a command first reads them
 * (index_want_memory()): reading the allocators' events and the
 * programs' buffer assignments, and storing what they give, cost a cold
 * index of a small GPU profile a fifth more (bench/RESULTS.md).
 */
static const char *const memory_schema[] = {
	"CREATE TABLE memory_allocators("
	    "id INTEGER PRIMARY KEY, "
	    "file_id INTEGER NOT NULL, plane INTEGER NOT NULL, "
	    "allocator TEXT NOT NULL, peak_bytes INTEGER NOT NULL, "
	    "heap_bytes INTEGER, stack_bytes INTEGER, free_bytes INTEGER, "
	    "fragmentation REAL, peak_ps INTEGER, step INTEGER, tf_op TEXT, "
	    "lifetime_peak_bytes INTEGER, events INTEGER NOT NULL, "
	    "damage TEXT)",
	/*
	 * Keyed as read, without a rowid: one B-tree to insert into, where
	 * a table and an index on it were a sixth of a cold index of a
	 * small GPU profile.
	 */
	"CREATE TABLE memory_samples("
	    "file_id INTEGER NOT NULL, allocator INTEGER NOT NULL, "
	    "seq INTEGER NOT NULL, time_ps INTEGER, heap_bytes INTEGER, "
	    "stack_bytes INTEGER, PRIMARY KEY (file_id, allocator, seq)) "
	    "WITHOUT ROWID",
	"CREATE TABLE memory_allocations("
	    "file_id INTEGER NOT NULL, allocator INTEGER NOT NULL, "
	    "seq INTEGER NOT NULL, allocation_bytes INTEGER, "
	    "requested_bytes INTEGER, time_ps INTEGER, tf_op TEXT, "
	    "shape TEXT, data_type TEXT, region_type TEXT, "
	    "PRIMARY KEY (file_id, allocator, seq)) WITHOUT ROWID",
	"CREATE TABLE program_memory("
	    "file_id INTEGER NOT NULL, program_id INTEGER, "
	    "module TEXT NOT NULL, peak_bytes INTEGER NOT NULL, "
	    "heap_peak_bytes INTEGER, parameter_bytes INTEGER, "
	    "output_bytes INTEGER, constant_bytes INTEGER, "
	    "temp_bytes INTEGER, allocations INTEGER, damage TEXT)",
	"CREATE TABLE memory_buffers("
	    "file_id INTEGER NOT NULL, program_id INTEGER, "
	    "module TEXT NOT NULL, instruction TEXT NOT NULL, "
	    "opcode TEXT, size_bytes INTEGER NOT NULL, "
	    "count INTEGER NOT NULL, kind TEXT NOT NULL, "
	    "shape TEXT, op_name TEXT, source_file TEXT, "
	    "source_line INTEGER)",
	"CREATE INDEX memory_allocators_file ON memory_allocators(file_id)",
	"CREATE INDEX program_memory_file ON program_memory(file_id)",
	"CREATE INDEX memory_buffers_file ON memory_buffers(file_id)",
};

#undef COLS_SQL
#undef JOIN_SQL

static int
exec_all(sqlite3 *db, const char *const *sql, size_t n)
{
	size_t i;
	int rc;

	for (i = 0; i < n; i++)
		if ((rc = sqlite3_exec(db, sql[i], NULL, NULL, NULL)) !=
		    SQLITE_OK)
			return rc;
	return SQLITE_OK;
}

int
index_schema_create_events(sqlite3 *db)
{
	return exec_all(db, event_schema,
	    sizeof event_schema / sizeof event_schema[0]);
}

int
index_schema_create_memory(sqlite3 *db)
{
	return exec_all(db, memory_schema,
	    sizeof memory_schema / sizeof memory_schema[0]);
}

int
index_schema_create(sqlite3 *db)
{
	char sql[64];
	int rc;

	if ((rc = exec_all(db, schema, sizeof schema / sizeof schema[0])) !=
	    SQLITE_OK)
		return rc;
	snprintf(sql, sizeof sql, "PRAGMA application_id = %ld",
	    (long)INDEX_APPLICATION_ID);
	if ((rc = sqlite3_exec(db, sql, NULL, NULL, NULL)) != SQLITE_OK ||
	    (rc = sqlite3_exec(db, "INSERT INTO meta VALUES ('application', '"
	    INDEX_APPLICATION_ROW "')", NULL, NULL, NULL)) != SQLITE_OK)
		return rc;
	snprintf(sql, sizeof sql,
	    "INSERT INTO meta VALUES ('schema_version', '%d')",
	    INDEX_SCHEMA_VERSION);
	return sqlite3_exec(db, sql, NULL, NULL, NULL);
}
