/* gBalloon's GPU memory adjustment (gBalloon paper, Algorithm 1): when
 * a vGPU grows or shrinks by Q slots, split Q between its two ends so that
 * the vGPU shares as few slots as possible with the others. The loops and
 * their bounds follow the paper's pseudocode line by line. */
#include "gpu/gballoon/gballoon_adjust.h"
#include "gpu/hw/gpu_hw.h"

/* Slots in [from, from + len) occupied by vGPU j. */
static uint32_t occupied(const struct slot_layout *lay, uint32_t j,
			 int64_t from, int64_t len)
{
	int64_t a = from > (int64_t)lay->p[j] ? from : (int64_t)lay->p[j];
	int64_t end = (int64_t)lay->p[j] + lay->s[j];
	int64_t b = from + len < end ? from + len : end;

	return b > a ? (uint32_t)(b - a) : 0;
}

static uint32_t min_u32(uint32_t a, uint32_t b)
{
	return a < b ? a : b;
}

int gballoon_expand(const struct slot_layout *lay, uint32_t k, uint32_t q,
		    uint32_t *l, uint32_t *r)
{
	uint32_t pk, sk, minimum = UINT32_MAX, lo, hi;

	if (k >= lay->n || slots_check(lay))
		return -GPU_EINVAL;
	pk = lay->p[k];
	sk = lay->s[k];
	if (sk + q > lay->m)                                   /* (1) */
		return -GPU_EINVAL;
	lo = q - min_u32(q, lay->m - pk - sk);                 /* (3) */
	hi = min_u32(q, pk);
	*l = lo;
	for (uint32_t i = lo; i <= hi; i++) {
		uint32_t count = 0;

		for (uint32_t j = 0; j < lay->n; j++)          /* (5)-(8) */
			count += occupied(lay, j, (int64_t)pk - i, i) +
				 occupied(lay, j, pk + sk, q - i);
		if (minimum > count) {                         /* (10)-(12) */
			minimum = count;
			*l = i;
		}
	}
	*r = q - *l;                                           /* (15) */
	return 0;
}

int gballoon_reduce(const struct slot_layout *lay, uint32_t k, uint32_t q,
		    uint32_t *l, uint32_t *r)
{
	int64_t maximum = -1;
	uint32_t pk, sk;

	if (k >= lay->n || slots_check(lay) || lay->s[k] < q)  /* (1) */
		return -GPU_EINVAL;
	pk = lay->p[k];
	sk = lay->s[k];
	*l = 0;
	for (uint32_t i = 0; i <= q; i++) {                    /* (3) */
		uint32_t count = 0;

		for (uint32_t j = 0; j < lay->n; j++)          /* (5)-(10) */
			if (j != k)
				count += occupied(lay, j, pk, i) +
					 occupied(lay, j,
						  (int64_t)pk + sk + i - q,
						  q - i);
		if (maximum < count) {                         /* (12)-(14) */
			maximum = count;
			*l = i;
		}
	}
	*r = q - *l;                                           /* (17) */
	return 0;
}
