/*
 * g9hv-cl-run: the smallest OpenCL program that makes Intel's compute
 * runtime (NEO, Debian 12's intel-opencl-icd 22.43) submit real GPGPU work
 * through i915 to the vGPU. It picks the Intel GPU device, creates a
 * context and an in-order queue, a 4 KiB buffer preset to 5a5a5a5a with a
 * blocking write, builds a program from the Gen9 binary of
 * guest-shim/cl-run/fill.cl (the guest carries no compiler: tools/fetch-opencl),
 * enqueues the kernel over 1,024 work-items with an event, waits a
 * bounded time for the event to complete, then reads the buffer back.
 *
 * What it checks is the submission, not the bytes: the software Gen9
 * model behind the vGPU walks GPGPU_WALKER and its state but does not run
 * EU kernels (README.md), so the words are printed and compared, and the
 * comparison is reported, never asserted. The exit status is 0 when every
 * OpenCL call succeeded and the event reached CL_COMPLETE within the bound.
 *
 * Usage: g9hv-cl-run [KERNEL_BINARY] (default /etc/g9hv/cl-fill.bin).
 * Output, one "cl-run: " line each (short: the hypervisor's console cuts
 * long guest lines); the last is the marker
 *   cl-run: done: build=R enqueue=R event=S
 * with R an OpenCL error number and S the event's execution status.
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define WORDS 1024u
#define BASE 0xC0DE0000u
#define PRESET 0x5A5A5A5Au
#define WAIT_S 120 /* guest time */

static int failed;

static cl_int check(const char *what, cl_int err)
{
	printf("cl-run: %s: %d\n", what, err);
	if (err != CL_SUCCESS)
		failed = 1;
	return err;
}

static unsigned char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc(n > 0 ? (size_t)n : 1);
	if (!buf || n <= 0 || fread(buf, 1, (size_t)n, f) != (size_t)n) {
		fclose(f);
		free(buf);
		return NULL;
	}
	fclose(f);
	*len = (size_t)n;
	return buf;
}

static cl_device_id intel_gpu(void)
{
	cl_platform_id p[8];
	cl_uint np = 0, i;
	cl_device_id d;
	char name[128];

	check("platforms", clGetPlatformIDs(8, p, &np));
	for (i = 0; i < np && i < 8; i++) {
		clGetPlatformInfo(p[i], CL_PLATFORM_NAME, sizeof(name), name, NULL);
		printf("cl-run: platform %u: %s\n", i, name);
		if (clGetDeviceIDs(p[i], CL_DEVICE_TYPE_GPU, 1, &d, NULL) == CL_SUCCESS)
			return d;
	}
	return NULL;
}

/* Polls the event's status for at most WAIT_S seconds. */
static cl_int wait_event(cl_event ev)
{
	struct timespec t0, t;
	cl_int st = CL_QUEUED;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		if (clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS,
				   sizeof(st), &st, NULL) != CL_SUCCESS)
			return -1000;
		if (st <= CL_COMPLETE) /* complete, or an error (negative) */
			return st;
		clock_gettime(CLOCK_MONOTONIC, &t);
		if (t.tv_sec - t0.tv_sec > WAIT_S)
			return st;
		nanosleep(&(struct timespec){ 0, 1000000 }, NULL);
	}
}

static const char *status_name(cl_int st)
{
	switch (st) {
	case CL_COMPLETE: return "CL_COMPLETE";
	case CL_RUNNING: return "CL_RUNNING";
	case CL_SUBMITTED: return "CL_SUBMITTED";
	case CL_QUEUED: return "CL_QUEUED";
	default: return "error";
	}
}

int main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : "/etc/g9hv/cl-fill.bin";
	static cl_uint words[WORDS];
	cl_int err, build = -1, enq = -1, st = -1;
	cl_device_id dev;
	cl_context ctx;
	cl_command_queue q;
	cl_mem buf;
	cl_program prog;
	cl_kernel k;
	cl_event ev;
	unsigned char *bin;
	size_t len = 0, global = WORDS;
	cl_uint i, base = BASE, right = 0;
	char s[128];

	setvbuf(stdout, NULL, _IOLBF, 0);
	dev = intel_gpu();
	if (!dev) {
		printf("cl-run: no GPU device\ncl-run: done: build=-1 enqueue=-1 event=none\n");
		return 1;
	}
	clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof(s), s, NULL);
	printf("cl-run: device: %s\n", s);
	clGetDeviceInfo(dev, CL_DRIVER_VERSION, sizeof(s), s, NULL);
	printf("cl-run: driver version %s\n", s);
	bin = read_file(path, &len);
	if (!bin) {
		printf("cl-run: cannot read %s\ncl-run: done: build=-1 enqueue=-1 event=none\n", path);
		return 1;
	}
	ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
	if (check("context", err))
		return 1;
	q = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
	if (check("queue", err))
		return 1;
	for (i = 0; i < WORDS; i++)
		words[i] = PRESET;
	buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof(words), NULL, &err);
	if (check("buffer", err))
		return 1;
	check("write (blocking)", clEnqueueWriteBuffer(q, buf, CL_TRUE, 0,
			sizeof(words), words, 0, NULL, NULL));
	prog = clCreateProgramWithBinary(ctx, 1, &dev, &len,
			(const unsigned char **)&bin, NULL, &err);
	printf("cl-run: program from a %zu-byte Gen9 binary\n", len);
	if (check("program", err))
		return 1;
	build = check("build", clBuildProgram(prog, 1, &dev, "", NULL, NULL));
	if (build)
		goto done;
	k = clCreateKernel(prog, "fill", &err);
	if (check("kernel", err))
		goto done;
	check("arg 0", clSetKernelArg(k, 0, sizeof(buf), &buf));
	check("arg 1", clSetKernelArg(k, 1, sizeof(base), &base));
	enq = check("enqueue", clEnqueueNDRangeKernel(q, k, 1, NULL, &global,
			NULL, 0, NULL, &ev));
	if (enq)
		goto done;
	check("flush", clFlush(q));
	st = wait_event(ev);
	printf("cl-run: event: %s (%d)\n", status_name(st), st);
	if (st != CL_COMPLETE)
		failed = 1;
	check("finish", clFinish(q));
	for (i = 0; i < WORDS; i++)
		words[i] = 0;
	check("read (blocking)", clEnqueueReadBuffer(q, buf, CL_TRUE, 0,
			sizeof(words), words, 0, NULL, NULL));
	for (i = 0; i < WORDS; i++)
		right += words[i] == BASE + i;
	printf("cl-run: out[0..3] %08x %08x %08x %08x\n", words[0], words[1],
	       words[2], words[3]);
	printf("cl-run: words as the kernel computes them %u/%u (not checked)\n",
	       right, WORDS);
done:
	printf("cl-run: done: build=%d enqueue=%d event=%s\n", build, enq,
	       st == -1 ? "none" : status_name(st));
	return failed;
}
