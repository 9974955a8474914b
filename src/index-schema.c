/* The index's schema (index-schema.h; documented in jaxprof(1)). */
#include "config.h"

#include <stdio.h>

#include "index.h"
#include "index-schema.h"

static const char *const schema[] = {
	"CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)",
	"CREATE TABLE files("
	    "id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE, "
	    "kind TEXT NOT NULL, run TEXT NOT NULL, host TEXT NOT NULL, "
	    "size INTEGER NOT NULL, mtime_ns INTEGER NOT NULL, "
	    "hostname TEXT, planes INTEGER, lines INTEGER, events INTEGER, "
	    "start_ps INTEGER, end_ps INTEGER, profile_start_ns INTEGER, "
	    "op_source TEXT, errors TEXT, warnings TEXT, "
	    "missing_metadata INTEGER, indexed_at INTEGER)",
	"CREATE TABLE planes("
	    "id INTEGER PRIMARY KEY, file_id INTEGER NOT NULL, "
	    "plane_id INTEGER, name TEXT NOT NULL, kind TEXT NOT NULL, "
	    "lines INTEGER, events INTEGER, start_ps INTEGER, end_ps INTEGER, "
	    "peak_gflops REAL, peak_gbps REAL)",
	"CREATE TABLE ops("
	    "file_id INTEGER NOT NULL, plane INTEGER NOT NULL, "
	    "name TEXT NOT NULL, module TEXT NOT NULL, category TEXT NOT NULL, "
	    "count INTEGER, total_ps INTEGER, self_ps INTEGER, "
	    "min_ps INTEGER, max_ps INTEGER, flops INTEGER, "
	    "bytes_accessed INTEGER, framework_op TEXT, source TEXT, "
	    "source_function TEXT, parent TEXT, "
	    "compile_work INTEGER NOT NULL DEFAULT 0)",
	"CREATE TABLE kernels("
	    "file_id INTEGER NOT NULL, plane INTEGER NOT NULL, "
	    "name TEXT NOT NULL, op TEXT, count INTEGER, total_ps INTEGER, "
	    "min_ps INTEGER, max_ps INTEGER, details TEXT, module TEXT, "
	    "category TEXT, source TEXT, framework_op TEXT)",
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
	"CREATE TABLE executions("
	    "file_id INTEGER NOT NULL, plane INTEGER NOT NULL, "
	    "module TEXT NOT NULL, program_id INTEGER, run_id INTEGER, "
	    "start_ps INTEGER, dur_ps INTEGER, device_ps INTEGER, "
	    "compile_work INTEGER NOT NULL DEFAULT 0)",
	"CREATE TABLE gaps("
	    "file_id INTEGER NOT NULL, plane INTEGER NOT NULL, "
	    "start_ps INTEGER, dur_ps INTEGER)",
	"CREATE TABLE host_events("
	    "file_id INTEGER NOT NULL, plane INTEGER NOT NULL, line TEXT, "
	    "name TEXT NOT NULL, depth INTEGER, start_ps INTEGER, "
	    "dur_ps INTEGER)",
	"CREATE TABLE scopes("
	    "file_id INTEGER NOT NULL, plane INTEGER NOT NULL, "
	    "path TEXT NOT NULL, name TEXT NOT NULL, depth INTEGER, "
	    "count INTEGER, total_ps INTEGER, self_ps INTEGER)",
	"CREATE TABLE programs("
	    "file_id INTEGER NOT NULL, module TEXT NOT NULL, "
	    "program_id INTEGER)",
	"CREATE TABLE transfers("
	    "file_id INTEGER NOT NULL, plane INTEGER NOT NULL, line TEXT, "
	    "name TEXT NOT NULL, direction TEXT NOT NULL, "
	    "on_host INTEGER NOT NULL, bytes INTEGER, start_ps INTEGER, "
	    "dur_ps INTEGER)",
	"CREATE TABLE transfer_totals("
	    "file_id INTEGER NOT NULL, plane INTEGER NOT NULL, "
	    "direction TEXT NOT NULL, on_host INTEGER NOT NULL, "
	    "count INTEGER, bytes INTEGER, dur_ps INTEGER, rated_ps INTEGER, "
	    "rated_count INTEGER, wait_ps INTEGER)",
	"CREATE TABLE hlo_instructions("
	    "file_id INTEGER NOT NULL, program_id INTEGER, "
	    "module TEXT NOT NULL, computation TEXT, name TEXT NOT NULL, "
	    "id INTEGER, opcode TEXT, category TEXT, fusion_kind TEXT, "
	    "custom_call_target TEXT, op_name TEXT, op_type TEXT, "
	    "source_file TEXT, source_line INTEGER, source_function TEXT, "
	    "schedule_index INTEGER)",
	"CREATE TABLE run_totals("
	    "run TEXT NOT NULL, device TEXT NOT NULL, kernels INTEGER NOT NULL, "
	    "compile_work INTEGER NOT NULL, name TEXT NOT NULL, "
	    "module TEXT NOT NULL, category TEXT, count INTEGER, "
	    "total_ps INTEGER, self_ps INTEGER, min_ps INTEGER, "
	    "max_ps INTEGER, flops INTEGER, bytes_accessed INTEGER, "
	    "framework_op TEXT, source TEXT, source_function TEXT, "
	    "details TEXT, hlo_op TEXT)",
	"CREATE TABLE stale_runs(run TEXT PRIMARY KEY)",
	"CREATE TABLE packed_rows("
	    "file_id INTEGER NOT NULL, tbl TEXT NOT NULL, rows INTEGER, "
	    "size INTEGER NOT NULL, data BLOB NOT NULL)",
	"CREATE TABLE report_cache("
	    "key BLOB PRIMARY KEY, status INTEGER NOT NULL, "
	    "stdout BLOB NOT NULL, stdout_size INTEGER NOT NULL, "
	    "stderr BLOB NOT NULL)",
	"CREATE INDEX planes_file ON planes(file_id)",
	"CREATE INDEX run_totals_run ON run_totals(run, kernels)",
	"CREATE INDEX ops_file ON ops(file_id, plane)",
	"CREATE INDEX kernels_file ON kernels(file_id, plane)",
	"CREATE INDEX modules_file ON modules(file_id)",
	"CREATE INDEX steps_file ON steps(file_id)",
	/* The step around a time on a plane (idle, transfers): no scan. */
	"CREATE INDEX steps_plane ON steps(plane, start_ps)",
	"CREATE INDEX compiles_file ON compiles(file_id)",
	"CREATE INDEX transfers_file ON transfers(file_id)",
	"CREATE INDEX transfer_totals_file ON transfer_totals(file_id)",
	"CREATE INDEX compile_phases_file ON compile_phases(file_id)",
	"CREATE INDEX executions_file ON executions(file_id)",
	"CREATE INDEX gaps_file ON gaps(file_id)",
	"CREATE INDEX host_events_file ON host_events(file_id)",
	"CREATE INDEX scopes_file ON scopes(file_id)",
	"CREATE INDEX programs_file ON programs(file_id)",
	"CREATE INDEX packed_rows_file ON packed_rows(file_id)",
	/*
	 * By file alone: no report looks instructions up, and a key of
	 * (file_id, module, name) was 13% of a cold top on a warm-cache
	 * profile, whose rows are mostly its programs' HLO.  A join on
	 * (module, name) in `jaxprof sql` gets SQLite's automatic index.
	 */
	"CREATE INDEX hlo_instructions_file ON hlo_instructions(file_id)",
};

int
index_schema_create(sqlite3 *db)
{
	char sql[64];
	size_t i;
	int rc;

	for (i = 0; i < sizeof schema / sizeof schema[0]; i++)
		if ((rc = sqlite3_exec(db, schema[i], NULL, NULL, NULL)) !=
		    SQLITE_OK)
			return rc;
	snprintf(sql, sizeof sql,
	    "INSERT INTO meta VALUES ('schema_version', '%d')",
	    INDEX_SCHEMA_VERSION);
	return sqlite3_exec(db, sql, NULL, NULL, NULL);
}
