-- The straggler table of jaxprof-hosts(1) over `jaxprof export`'s tables
-- (steps, step_collectives, step_annotations): one row per run and host,
-- the rule and its thresholds as the man page gives them (THE RULE).
-- Spark SQL and DuckDB both run this text: contrib/spark/jaxprof_fleet.py,
-- contrib/duckdb/ (see contrib/README.md).
WITH
-- A host's step: the mean of its devices' figures.
host_steps AS (
    SELECT run, host, step, avg(dur_ps) AS dur_ps,
        avg(compute_ps) AS compute_ps, avg(collective_ps) AS collective_ps,
        avg(idle_ps) AS idle_ps
    FROM steps WHERE step IS NOT NULL GROUP BY run, host, step),
hosts AS (
    SELECT run, host, count(*) AS steps,
        percentile_cont(0.5) WITHIN GROUP (ORDER BY dur_ps) AS median_step_ps,
        percentile_cont(0.9) WITHIN GROUP (ORDER BY dur_ps) AS p90_step_ps,
        avg(compute_ps) AS compute_ps, avg(collective_ps) AS collective_ps,
        avg(idle_ps) AS idle_ps
    FROM host_steps GROUP BY run, host),
runs AS (
    SELECT run, count(DISTINCT host) AS nhosts,
        percentile_cont(0.5) WITHIN GROUP (ORDER BY dur_ps) AS median_step_ps
    FROM host_steps GROUP BY run),
-- d(h): a host's duration of one collective of one step, its shortest
-- over its devices, hosts without steps take no part.
arrivals AS (
    SELECT c.run, c.host, c.step, c.name, c.occurrence, min(c.dur_ps) AS d
    FROM step_collectives c
    JOIN hosts h ON h.run = c.run AND h.host = c.host
    GROUP BY c.run, c.host, c.step, c.name, c.occurrence),
-- The collectives two hosts or more ran.
collectives AS (
    SELECT run, step, name, occurrence, min(d) AS min_d,
        max(d) - min(d) AS spread,
        percentile_cont(0.5) WITHIN GROUP (ORDER BY d) AS median_d
    FROM arrivals GROUP BY run, step, name, occurrence
    HAVING count(*) >= 2),
-- Each joined step's deciding collective: the largest spread, the first
-- in op name and occurrence order among equals.
deciders AS (
    SELECT *, row_number() OVER (PARTITION BY run, step
        ORDER BY spread DESC, name, occurrence) AS pick
    FROM collectives),
-- Its last host: the shortest d, the first host in name order among
-- equals, its lateness: the median d minus the last host's.
lasts AS (
    SELECT a.run, a.step, a.host, k.median_d - k.min_d AS lateness,
        row_number() OVER (PARTITION BY a.run, a.step
            ORDER BY a.d, a.host) AS pick
    FROM arrivals a
    JOIN deciders k ON k.run = a.run AND k.step = a.step
        AND k.name = a.name AND k.occurrence = a.occurrence
    WHERE k.pick = 1),
joined AS (
    SELECT run, count(*) AS joined_steps FROM lasts WHERE pick = 1
    GROUP BY run),
last_counts AS (
    SELECT run, host, count(*) AS last_steps,
        percentile_cont(0.5) WITHIN GROUP (ORDER BY lateness) AS lateness_ps
    FROM lasts WHERE pick = 1 GROUP BY run, host),
-- wait of h: d(h) minus the shortest d, over every collective it ran.
waits AS (
    SELECT a.run, a.host, sum(a.d - c.min_d) AS wait_ps
    FROM arrivals a
    JOIN collectives c ON c.run = a.run AND c.step = a.step
        AND c.name = a.name AND c.occurrence = a.occurrence
    GROUP BY a.run, a.host),
-- The host's annotation with the most time over its steps.
annotations AS (
    SELECT run, host, name, sum(dur_ps) AS total_ps,
        row_number() OVER (PARTITION BY run, host
            ORDER BY sum(dur_ps) DESC, name) AS pick
    FROM step_annotations GROUP BY run, host, name),
rows AS (
    SELECT h.run, h.host, h.steps, h.median_step_ps, h.p90_step_ps,
        h.compute_ps, h.collective_ps,
        coalesce(w.wait_ps, 0) / h.steps AS wait_ps, h.idle_ps,
        a.name AS top_annotation, a.total_ps / h.steps AS annotation_ps,
        coalesce(l.last_steps, 0) AS last_steps,
        coalesce(j.joined_steps, 0) AS joined_steps,
        coalesce(l.lateness_ps, 0) AS lateness_ps,
        r.nhosts, r.median_step_ps AS run_median_step_ps
    FROM hosts h
    JOIN runs r ON r.run = h.run
    LEFT JOIN waits w ON w.run = h.run AND w.host = h.host
    LEFT JOIN last_counts l ON l.run = h.run AND l.host = h.host
    LEFT JOIN joined j ON j.run = h.run
    LEFT JOIN annotations a ON a.run = h.run AND a.host = h.host
        AND a.pick = 1)
SELECT run, host, steps,
    round(median_step_ps / 1e6, 3) AS median_step_us,
    round(p90_step_ps / 1e6, 3) AS p90_step_us,
    round(compute_ps / 1e6, 3) AS compute_us,
    round(collective_ps / 1e6, 3) AS collective_us,
    round(wait_ps / 1e6, 3) AS wait_us,
    round(greatest(collective_ps - wait_ps, 0) / 1e6, 3) AS transfer_us,
    round(idle_ps / 1e6, 3) AS idle_us,
    CASE WHEN annotation_ps >= 100e6 THEN top_annotation ELSE '' END
        AS idle_in,
    CASE WHEN annotation_ps >= 100e6 THEN round(annotation_ps / 1e6, 3)
        ELSE 0 END AS idle_in_us,
    last_steps, joined_steps,
    round(lateness_ps / 1e6, 3) AS lateness_us,
    nhosts >= 2 AND joined_steps > 0
        AND last_steps >= 0.6 * joined_steps
        AND lateness_ps >= 1e9
        AND lateness_ps >= 0.1 * run_median_step_ps AS straggler
FROM rows
ORDER BY run, host;
