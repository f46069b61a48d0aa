/* The fuzz_vgpu_ggtt fuzz target's world is the freshly built one before every
 * input (issue 13): see fuzz_restore_fake.h. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tests/fuzz/fuzz_vgpu_ggtt.c"

#define FZR_CORPUS "tests/fuzz/corpus/fuzz_vgpu_ggtt"
#include "tests/unit/fuzz_restore_fake.h"
