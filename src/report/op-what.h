/*
 * What an HLO op is, for a person: custom-call.42 alone tells nothing.
 *
 *	char *what = op_what(row->framework_op, row->source);
 *	... "jvp(extra_work)/dot_general", or "train.py:57", or "" ...
 *	free(what);
 */
#ifndef JAXPROF_OP_WHAT_H
#define JAXPROF_OP_WHAT_H

/*
 * The framework op without its outer jit(...) scopes, at most its last
 * two parts ("jvp(extra_work)/dot_general" of
 * "jit(train_step)/jvp(extra_work)/dot_general"); where there is none,
 * the source line with its file's name only ("train.py:57"); else "".
 * Either may be NULL.  A new string.
 */
char	*op_what(const char *framework_op, const char *source);

#endif
