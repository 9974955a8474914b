-- The tables of `jaxprof export`'s Parquet as DuckDB views, for the
-- queries of contrib/sql/.  Run in the folder export wrote (the one
-- holding steps/, step_collectives/ ...), before a query:
--     cd OUT/parquet &&
--     cat .../contrib/duckdb/views.sql .../contrib/sql/stragglers.sql |
--         duckdb -csv
-- Run and host names stay text, whatever they look like.
CREATE OR REPLACE TEMP VIEW steps AS SELECT * FROM read_parquet(
    'steps/*/*/*.parquet', hive_partitioning = true,
    hive_types = {'run': VARCHAR, 'host': VARCHAR});
CREATE OR REPLACE TEMP VIEW step_collectives AS SELECT * FROM read_parquet(
    'step_collectives/*/*/*.parquet', hive_partitioning = true,
    hive_types = {'run': VARCHAR, 'host': VARCHAR});
CREATE OR REPLACE TEMP VIEW step_annotations AS SELECT * FROM read_parquet(
    'step_annotations/*/*/*.parquet', hive_partitioning = true,
    hive_types = {'run': VARCHAR, 'host': VARCHAR});
CREATE OR REPLACE TEMP VIEW ops AS SELECT * FROM read_parquet(
    'ops/*/*/*.parquet', hive_partitioning = true,
    hive_types = {'run': VARCHAR, 'host': VARCHAR});
