/* The guest DRM client's modes besides the checks (drm_client.c). */
#ifndef GUEST_SHIM_DRM_CLIENT_MODES_H
#define GUEST_SHIM_DRM_CLIENT_MODES_H

/* loops empty batches (MI_BATCH_BUFFER_END) per engine, back to back,
 * then one wait: submissions per second as the guest's clock sees them. */
int dc_nop(int fd, unsigned int loops);
/* The attacks on the mediator (hostile.c), each on a fresh DRM fd (its own
 * i915 context, so one banned context does not hide the next attack);
 * lri_only: just the privileged LRI on RCS. 0 unless one was a BREACH. */
int dc_hostile(const char *dev);
/* Writes the g9hv counter-mark to the vGPU's PVINFO G2V_NOTIFY through
 * BAR0 (root): the mediator logs this vGPU's counters with the mark. */
int dc_stats_mark(unsigned int mark);

#endif
