-- The top ops of each run over all its hosts, from `jaxprof export`'s ops
-- table: what `jaxprof top` ranks on one machine (ops by device time, the
-- work of compiling left out), summed over the hosts, with how many hosts
-- ran each.  Spark SQL and DuckDB both run this text (contrib/README.md).
WITH
run_ops AS (SELECT * FROM ops WHERE NOT compile_work),
totals AS (SELECT run, sum(total_ps) AS all_ps FROM run_ops GROUP BY run),
per_op AS (
    SELECT run, name, module, min(category) AS category,
        count(DISTINCT host) AS hosts, sum(count) AS count,
        sum(total_ps) AS total_ps, sum(self_ps) AS self_ps,
        min(min_ps) AS min_ps, max(max_ps) AS max_ps
    FROM run_ops GROUP BY run, name, module),
ranked AS (
    SELECT p.*, t.all_ps, row_number() OVER (PARTITION BY p.run
        ORDER BY p.total_ps DESC, p.name, p.module) AS rank
    FROM per_op p JOIN totals t ON t.run = p.run)
SELECT run, rank, name, module, category, hosts, count,
    round(total_ps / 1e6, 3) AS total_us,
    round(self_ps / 1e6, 3) AS self_us,
    round(total_ps / count / 1e6, 3) AS avg_us,
    round(min_ps / 1e6, 3) AS min_us,
    round(max_ps / 1e6, 3) AS max_us,
    round(100 * total_ps / all_ps, 2) AS percent
FROM ranked WHERE rank <= 20
ORDER BY run, rank;
