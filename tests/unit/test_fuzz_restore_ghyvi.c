/* The fuzz_ghyvi fuzz target's world is the freshly built one before every
 * input (issue 13): see fuzz_restore_fake.h. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tests/fuzz/fuzz_ghyvi.c"

#define FZR_CORPUS "tests/fuzz/corpus/fuzz_ghyvi"
#include "tests/unit/fuzz_restore_fake.h"
