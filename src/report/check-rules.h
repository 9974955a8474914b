/*
 * The rules `jaxprof check` holds a new run to against a baseline, and
 * the settings they are told (jaxprof-check(1)): one row of check_rules
 * per rule, read from the command line or a rules file, judged into
 * PASS and FAIL rows.
 *
 *	struct check_settings *cs = check_settings_new();
 *	check_setting_parse(cs, i, "5%");	   (an option; -1: invalid)
 *	check_settings_read(cs, &cause);	   (the --rules file)
 *	status = check_report(&report, cs, new_path);
 *	check_settings_free(cs);
 */
#ifndef JAXPROF_CHECK_RULES_H
#define JAXPROF_CHECK_RULES_H

#include <stddef.h>

struct report;

/* What a setting's value is. */
enum check_kind {
	CHECK_PATH,
	CHECK_PERCENT,	/* "5%" or "5": a number >= 0; a share: <= 100 */
	CHECK_TIME,	/* "150ms": a number and ns, us, ms or s; in ps */
	CHECK_COUNT,	/* a whole number >= 0 */
	CHECK_SIZE,	/* "16G", "512M": bytes */
};

/* A rule's limit, or a setting's value, unless told otherwise. */
struct check_threshold {
	enum check_kind	 kind;
	double		 value;	/* in ps for a time, bytes for a size */
	int		 off;	/* a rule with no sensible default is off */
	int		 share;	/* a percentage of a whole: <= 100 */
};

struct check_judge;	/* a check under way: both runs, the rows */
struct check_setting;	/* a rule's or setting's value, and its origin */

/*
 * A rule: its rows say what it measured of part against its threshold.
 * Adding one is a row here, its measure, its tests and its lines in
 * --help and jaxprof-check(1).
 */
struct check_rule {
	const char	*name;	/* its option, rules-file key, rows' "rule" */
	const char	*part;	/* what it weighs: "steps", "ops", "memory" */
	/* Puts the rule's rows: the new run measured against the base. */
	void		(*measured)(struct check_judge *j,
			    const struct check_setting *rule);
	struct check_threshold threshold;
	const char	*advice;	/* what it asks, in --help's words */
};

/* The rules in the order they are judged (and their rows come). */
extern const struct check_rule check_rules[];
extern const size_t check_nrules;

/* The rules' values, then the settings that are no rule. */
struct check_settings {
	struct check_setting *v;
	size_t		 n;
	size_t		*by_name;	/* indexes of v, sorted by name */
};

/* Every rule and setting at its default. */
struct check_settings *check_settings_new(void);
void	check_settings_free(struct check_settings *cs);
/* Setting i's name: its long option and rules-file key. */
const char *check_setting_name(const struct check_settings *cs, size_t i);
/* Sets setting i from the command line, which wins; -1: invalid value. */
int	check_setting_parse(struct check_settings *cs, size_t i,
	    const char *value);
/* What setting i's value may be: "a whole number, or off". */
const char *check_setting_expected(const struct check_settings *cs,
	    size_t i);
/*
 * Reads the --rules file, when one was given, for the settings the
 * command line left: 0, or -1 with *cause a message naming the file and
 * line (caller frees).
 */
int	check_settings_read(struct check_settings *cs, char **cause);
/* The --baseline given, or NULL. */
const char *check_settings_baseline(const struct check_settings *cs);
/*
 * Reads a rules file as --rules would, keeping nothing: 0, or -1 with
 * *cause (caller frees).  For the fuzz target.
 */
int	check_rules_validate(const char *path, char **cause);
/*
 * Loads the baseline and the run at new_path through r, judges every
 * rule that is not off and prints the rows in r's format: EXIT_OK,
 * EXIT_CHECK_FAILED when a rule failed, or EXIT_TROUBLE.
 */
int	check_report(struct report *r, const struct check_settings *cs,
	    const char *new_path);

#endif
