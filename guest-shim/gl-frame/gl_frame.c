/*
 * g9hv-gl-frame: one offscreen OpenGL ES frame through Mesa's iris (Debian
 * 12's libgl1-mesa-dri 22.3) on the vGPU, with no window system: EGL on
 * the surfaceless platform (EGL_MESA_platform_surfaceless, which opens
 * /dev/dri/renderD128), a GLES 2 context made current without a surface
 * (EGL_KHR_surfaceless_context), a 64x64 RGBA8 framebuffer object, then
 * glClear, one glDrawArrays of a triangle with a compiled shader pair,
 * glReadPixels, an EGL fence sync waited a bounded time and glFinish.
 *
 * What it checks is the submission, not the pixels: the software Gen9
 * model behind the vGPU parses 3D state by length but neither rasterizes
 * nor runs EU kernels (README.md), so the pixels read back are printed
 * and never asserted. The exit status is 0 when every EGL/GL call
 * succeeded, glGetError stayed GL_NO_ERROR and the fence signalled within
 * the timeout. Work reaches i915 at the flushes (glReadPixels, the fence,
 * glFinish): iris's own first batch of 3D state, then the frame's.
 *
 * Output, one "gl-frame: " line each (short: the hypervisor's console
 * cuts long guest lines); the last is the marker
 *   gl-frame: done: fence=R gl=E
 * with R the eglClientWaitSyncKHR result and E glGetError's.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES2/gl2.h>
#include <GLES2/gl2ext.h>

#define SIZE 64
#define WAIT_NS (120ull * 1000 * 1000 * 1000) /* guest time */

static void fail(const char *what)
{
	printf("gl-frame: FAIL %s: egl 0x%04x gl 0x%04x\n", what, eglGetError(),
	       glGetError());
	fflush(stdout);
	exit(1);
}

static PFNEGLGETPLATFORMDISPLAYEXTPROC get_platform_display;
static PFNEGLCREATESYNCKHRPROC create_sync;
static PFNEGLCLIENTWAITSYNCKHRPROC client_wait_sync;
static PFNEGLDESTROYSYNCKHRPROC destroy_sync;

static void *proc(const char *name)
{
	void *p = (void *)eglGetProcAddress(name);

	if (!p)
		fail(name);
	return p;
}

static EGLDisplay open_display(void)
{
	const char *ext = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
	EGLint major, minor;
	EGLDisplay d;

	if (!ext || !strstr(ext, "EGL_MESA_platform_surfaceless"))
		fail("no EGL_MESA_platform_surfaceless");
	get_platform_display = proc("eglGetPlatformDisplayEXT");
	d = get_platform_display(EGL_PLATFORM_SURFACELESS_MESA,
				 EGL_DEFAULT_DISPLAY, NULL);
	if (d == EGL_NO_DISPLAY)
		fail("eglGetPlatformDisplayEXT");
	if (!eglInitialize(d, &major, &minor))
		fail("eglInitialize");
	printf("gl-frame: EGL %d.%d %s\n", major, minor,
	       eglQueryString(d, EGL_VENDOR));
	ext = eglQueryString(d, EGL_EXTENSIONS);
	if (!strstr(ext, "EGL_KHR_surfaceless_context") ||
	    !strstr(ext, "EGL_KHR_fence_sync"))
		fail("no EGL_KHR_surfaceless_context/EGL_KHR_fence_sync");
	create_sync = proc("eglCreateSyncKHR");
	client_wait_sync = proc("eglClientWaitSyncKHR");
	destroy_sync = proc("eglDestroySyncKHR");
	return d;
}

static void make_context(EGLDisplay d)
{
	static const EGLint cfg_attr[] = { EGL_SURFACE_TYPE, EGL_PBUFFER_BIT,
					   EGL_RENDERABLE_TYPE, EGL_OPENGL_ES2_BIT,
					   EGL_NONE };
	static const EGLint ctx_attr[] = { EGL_CONTEXT_CLIENT_VERSION, 2,
					   EGL_NONE };
	EGLConfig cfg;
	EGLint n = 0;
	EGLContext c;

	if (!eglBindAPI(EGL_OPENGL_ES_API))
		fail("eglBindAPI");
	if (!eglChooseConfig(d, cfg_attr, &cfg, 1, &n) || n < 1)
		fail("eglChooseConfig");
	c = eglCreateContext(d, cfg, EGL_NO_CONTEXT, ctx_attr);
	if (c == EGL_NO_CONTEXT)
		fail("eglCreateContext");
	if (!eglMakeCurrent(d, EGL_NO_SURFACE, EGL_NO_SURFACE, c))
		fail("eglMakeCurrent");
	printf("gl-frame: renderer: %s\n", (const char *)glGetString(GL_RENDERER));
	printf("gl-frame: version: %s\n", (const char *)glGetString(GL_VERSION));
}

static GLuint shader(GLenum type, const char *src)
{
	GLuint s = glCreateShader(type);
	GLint ok = 0;
	char log[160];

	glShaderSource(s, 1, &src, NULL);
	glCompileShader(s);
	glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
	if (!ok) {
		glGetShaderInfoLog(s, sizeof(log), NULL, log);
		printf("gl-frame: shader log: %.100s\n", log);
		fail("glCompileShader");
	}
	return s;
}

static GLuint program(void)
{
	static const char vs[] =
		"attribute vec2 pos;\n"
		"void main() { gl_Position = vec4(pos, 0.0, 1.0); }\n";
	static const char fs[] =
		"precision mediump float;\n"
		"uniform vec4 color;\n"
		"void main() { gl_FragColor = color; }\n";
	GLuint p = glCreateProgram();
	GLint ok = 0;

	glAttachShader(p, shader(GL_VERTEX_SHADER, vs));
	glAttachShader(p, shader(GL_FRAGMENT_SHADER, fs));
	glBindAttribLocation(p, 0, "pos");
	glLinkProgram(p);
	glGetProgramiv(p, GL_LINK_STATUS, &ok);
	if (!ok)
		fail("glLinkProgram");
	return p;
}

static void framebuffer(void)
{
	GLuint fb, rb;

	glGenFramebuffers(1, &fb);
	glBindFramebuffer(GL_FRAMEBUFFER, fb);
	glGenRenderbuffers(1, &rb);
	glBindRenderbuffer(GL_RENDERBUFFER, rb);
	glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8_OES, SIZE, SIZE);
	glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0,
				  GL_RENDERBUFFER, rb);
	if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
		fail("glCheckFramebufferStatus");
}

static void draw(GLuint p)
{
	static const GLfloat tri[] = { -0.9f, -0.9f, 0.9f, -0.9f, 0.0f, 0.9f };

	glViewport(0, 0, SIZE, SIZE);
	glClearColor(0.0f, 0.0f, 1.0f, 1.0f);
	glClear(GL_COLOR_BUFFER_BIT);
	glUseProgram(p);
	glUniform4f(glGetUniformLocation(p, "color"), 1.0f, 0.0f, 0.0f, 1.0f);
	glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, tri);
	glEnableVertexAttribArray(0);
	glDrawArrays(GL_TRIANGLES, 0, 3);
}

int main(void)
{
	static uint8_t px[SIZE * SIZE * 4];
	EGLDisplay d = open_display();
	const uint8_t *c = px + (SIZE / 2 * SIZE + SIZE / 2) * 4;
	EGLint fence;
	EGLSyncKHR sync;
	GLenum err;
	GLuint p;

	make_context(d);
	framebuffer();
	p = program();
	printf("gl-frame: fbo %dx%d RGBA8, program linked\n", SIZE, SIZE);
	draw(p);
	memset(px, 0x5a, sizeof(px));
	glReadPixels(0, 0, SIZE, SIZE, GL_RGBA, GL_UNSIGNED_BYTE, px);
	printf("gl-frame: cleared blue, drew red, read back\n");
	sync = create_sync(d, EGL_SYNC_FENCE_KHR, NULL);
	if (sync == EGL_NO_SYNC_KHR)
		fail("eglCreateSyncKHR");
	fence = client_wait_sync(d, sync, EGL_SYNC_FLUSH_COMMANDS_BIT_KHR,
				 WAIT_NS);
	printf("gl-frame: fence wait (%llu s max): %s\n", WAIT_NS / 1000000000ull,
	       fence == EGL_CONDITION_SATISFIED_KHR ? "EGL_CONDITION_SATISFIED" :
	       fence == EGL_TIMEOUT_EXPIRED_KHR ? "EGL_TIMEOUT_EXPIRED" : "error");
	destroy_sync(d, sync);
	glFinish();
	/* The model draws nothing: what the read gives is printed only. */
	printf("gl-frame: pixel[0,0] %02x%02x%02x%02x centre %02x%02x%02x%02x"
	       " (not checked)\n", px[0], px[1], px[2], px[3], c[0], c[1], c[2],
	       c[3]);
	err = glGetError();
	printf("gl-frame: done: fence=%s gl=0x%04x\n",
	       fence == EGL_CONDITION_SATISFIED_KHR ? "EGL_CONDITION_SATISFIED" :
	       "not-signalled", err);
	eglMakeCurrent(d, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
	eglTerminate(d);
	return fence == EGL_CONDITION_SATISFIED_KHR && err == GL_NO_ERROR ? 0 : 1;
}
