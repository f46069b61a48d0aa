/* The seed corpus of a fuzz target (tests/fuzz/corpus/<name>/), read into
 * memory for the unit tests that replay it. Header-only: the tests that
 * use it #include their fuzz target's sources and build no harness
 * object of their own. */
#ifndef TESTS_HARNESS_SEED_DIR_H
#define TESTS_HARNESS_SEED_DIR_H

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

struct seed {
	uint8_t *b;
	size_t n;
};

/* Up to max files of dir, each truncated to max_len bytes, into out; how
 * many. Fails the test on a file it cannot read. */
static size_t seed_dir_load(const char *dir, struct seed *out, size_t max,
			    size_t max_len)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	size_t n = 0;

	assert_non_null(d);
	while ((de = readdir(d)) && n < max) {
		char path[512];
		FILE *f;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		f = fopen(path, "rb");
		assert_non_null(f);
		out[n].b = malloc(max_len);
		assert_non_null(out[n].b);
		out[n].n = fread(out[n].b, 1, max_len, f);
		fclose(f);
		n++;
	}
	closedir(d);
	return n;
}

#endif
