### CLI golden tests (tests/cli/tNNNN-<cmd>-<what>.sh)
CLI_TESTS =
TESTS += $(CLI_TESTS)
EXTRA_DIST += tests/cli/lib.sh tests/cli/expect $(CLI_TESTS)
