/* bind-and-vanish: bind PipeWire's "default" metadata, then leave at a chosen moment.
 *
 * Part of scripts/reliability/pipewire-pending-leak. A client-owned metadata object (WirePlumber's
 * "default") is served by the PipeWire daemon, which counts each bind as pending until the owner
 * answers a ping. This client binds it and, depending on MODE, goes away before that answer can
 * come, or (control) only after it.
 *
 * Usage: bind-and-vanish MODE
 *   queued      shut the socket down as soon as the bind message is written to it
 *   exit        _exit(0) as soon as the bind message is written (the kernel closes the socket)
 *   read        shut the socket down once the daemon has read the bind (send queue drained)
 *   bound       shut the socket down when the daemon's bound_id for the new proxy arrives
 *   kill        raise(SIGKILL) when that bound_id arrives
 *   delay:USEC  shut the socket down USEC microseconds after the bind is written
 *   sync        control: send a core sync after the bind, wait for its done, then disconnect
 *               (the daemon holds the client's messages until the owner's pong, so the done
 *               comes only after it)
 * Prints one line: the mode, what happened, microseconds from the bind to leaving, and how many
 * bytes the daemon had not yet read from the socket then (if any, it drops them, the bind too).
 * Connects to $PIPEWIRE_RUNTIME_DIR (else $XDG_RUNTIME_DIR) / $PIPEWIRE_REMOTE (else pipewire-0).
 *
 * Build: gcc -O2 -rdynamic -o bind-and-vanish bind-and-vanish.c $(pkg-config --cflags --libs libpipewire-0.3) -ldl
 * (-rdynamic lets the sendmsg below stand in for libc's in the dlopened protocol module.)
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <linux/sockios.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include <pipewire/pipewire.h>
#include <pipewire/extensions/metadata.h>
#include <spa/utils/string.h>

enum mode { QUEUED, EXIT, READ, BOUND, KILL, DELAY, SYNC };

static enum mode mode;
static long delay_usec;
static int sock = -1;
static volatile int writes;          /* successful sendmsg calls on our socket */
static int bind_sent, bind_writes;   /* the bind was issued; `writes` at that moment */
static int sync_seq = -1, done;
static struct timespec t_bind, t_written;
static struct pw_proxy *proxy;
static struct spa_hook registry_listener, core_listener, proxy_listener;
static struct pw_registry *registry;
static struct pw_core *core;

/* Counts the writes to our socket, so the main loop knows when the bind has left the process. */
ssize_t sendmsg(int fd, const struct msghdr *msg, int flags)
{
	static ssize_t (*real)(int, const struct msghdr *, int);
	ssize_t res;

	if (real == NULL)
		real = (ssize_t (*)(int, const struct msghdr *, int))dlsym(RTLD_NEXT, "sendmsg");
	res = real(fd, msg, flags);
	if (fd == sock && res > 0)
		writes++;
	return res;
}

static long usec_since(const struct timespec *t)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - t->tv_sec) * 1000000L + (now.tv_nsec - t->tv_nsec) / 1000L;
}

static const char *mode_name(void)
{
	static const char *names[] = { "queued", "exit", "read", "bound", "kill", "delay", "sync" };
	return names[mode];
}

/* Leave without another word to the daemon. */
static void vanish(const char *what)
{
	long us = usec_since(&t_bind);
	int outq = -1;

	ioctl(sock, SIOCOUTQ, &outq);

	if (mode == KILL) {
		raise(SIGKILL);
	} else if (mode == EXIT) {
		_exit(0);
	}
	shutdown(sock, SHUT_RDWR);
	printf("bind-and-vanish: mode=%s %s, left %ld us after binding, %d bytes unread by the daemon\n",
	       mode_name(), what, us, outq);
	fflush(stdout);
	_exit(0);
}

static void proxy_bound(void *data, uint32_t global_id)
{
	if (mode == BOUND || mode == KILL)
		vanish("bound_id received");
}

static const struct pw_proxy_events proxy_events = {
	PW_VERSION_PROXY_EVENTS,
	.bound = proxy_bound,
};

static void registry_global(void *data, uint32_t id, uint32_t permissions, const char *type,
			    uint32_t version, const struct spa_dict *props)
{
	const char *name;

	if (bind_sent || !spa_streq(type, PW_TYPE_INTERFACE_Metadata) || props == NULL)
		return;
	name = spa_dict_lookup(props, PW_KEY_METADATA_NAME);
	if (!spa_streq(name, "default"))
		return;
	bind_writes = writes;
	clock_gettime(CLOCK_MONOTONIC, &t_bind);
	proxy = pw_registry_bind(registry, id, type, PW_VERSION_METADATA, 0);
	if (proxy == NULL) {
		fprintf(stderr, "bind-and-vanish: bind failed: %m\n");
		_exit(1);
	}
	pw_proxy_add_listener(proxy, &proxy_listener, &proxy_events, NULL);
	if (mode == SYNC)
		sync_seq = pw_core_sync(core, PW_ID_CORE, 0);
	bind_sent = 1;
}

static const struct pw_registry_events registry_events = {
	PW_VERSION_REGISTRY_EVENTS,
	.global = registry_global,
};

static void core_done(void *data, uint32_t id, int seq)
{
	if (id == PW_ID_CORE && seq == sync_seq)
		done = 1;
}

static void core_error(void *data, uint32_t id, int seq, int res, const char *message)
{
	fprintf(stderr, "bind-and-vanish: error id:%u: %s\n", id, message);
	_exit(1);
}

static const struct pw_core_events core_events = {
	PW_VERSION_CORE_EVENTS,
	.done = core_done,
	.error = core_error,
};

static int connect_socket(void)
{
	const char *dir = getenv("PIPEWIRE_RUNTIME_DIR");
	const char *name = getenv("PIPEWIRE_REMOTE");
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int fd;

	if (dir == NULL || *dir == '\0')
		dir = getenv("XDG_RUNTIME_DIR");
	if (name == NULL || *name == '\0')
		name = "pipewire-0";
	if (dir == NULL || snprintf(addr.sun_path, sizeof(addr.sun_path), "%s/%s", dir, name)
			>= (int)sizeof(addr.sun_path))
		return -1;
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&addr, sizeof(addr)) < 0)
		return -1;
	return fd;
}

int main(int argc, char *argv[])
{
	struct pw_loop *loop;
	struct pw_context *context;
	int written = 0;

	if (argc != 2)
		goto usage;
	if (strcmp(argv[1], "queued") == 0) mode = QUEUED;
	else if (strcmp(argv[1], "exit") == 0) mode = EXIT;
	else if (strcmp(argv[1], "read") == 0) mode = READ;
	else if (strcmp(argv[1], "bound") == 0) mode = BOUND;
	else if (strcmp(argv[1], "kill") == 0) mode = KILL;
	else if (strcmp(argv[1], "sync") == 0) mode = SYNC;
	else if (strncmp(argv[1], "delay:", 6) == 0) { mode = DELAY; delay_usec = atol(argv[1] + 6); }
	else goto usage;

	pw_init(&argc, &argv);
	loop = pw_loop_new(NULL);
	context = pw_context_new(loop, NULL, 0);
	if ((sock = connect_socket()) < 0) {
		fprintf(stderr, "bind-and-vanish: cannot connect to PipeWire: %m\n");
		return 1;
	}
	core = pw_context_connect_fd(context, sock, NULL, 0);
	if (core == NULL) {
		fprintf(stderr, "bind-and-vanish: pw_context_connect_fd: %m\n");
		return 1;
	}
	pw_core_add_listener(core, &core_listener, &core_events, NULL);
	registry = pw_core_get_registry(core, PW_VERSION_REGISTRY, 0);
	pw_registry_add_listener(registry, &registry_listener, &registry_events, NULL);

	pw_loop_enter(loop);
	for (;;) {
		/* Until the bind has left, and then in the modes that watch the clock or the socket,
		 * never block: act on the first moment the mode asks for. */
		pw_loop_iterate(loop, bind_sent && (!written || mode == READ || mode == DELAY) ? 0 : -1);
		if (!bind_sent)
			continue;
		if (!written && writes > bind_writes) {
			written = 1;
			clock_gettime(CLOCK_MONOTONIC, &t_written);
			if (mode == QUEUED || mode == EXIT)
				vanish("bind written");
		}
		if (!written)
			continue;
		if (mode == READ) {
			int outq = 0;
			if (ioctl(sock, SIOCOUTQ, &outq) == 0 && outq == 0)
				vanish("bind read by the daemon");
		} else if (mode == DELAY && usec_since(&t_written) >= delay_usec) {
			vanish("delay over");
		} else if (mode == SYNC && done) {
			printf("bind-and-vanish: mode=sync done %ld us after binding, disconnecting\n",
			       usec_since(&t_bind));
			fflush(stdout);
			break;
		}
	}
	pw_loop_leave(loop);
	pw_core_disconnect(core);
	pw_context_destroy(context);
	pw_loop_destroy(loop);
	pw_deinit();
	return 0;

usage:
	fprintf(stderr, "usage: bind-and-vanish queued|exit|read|bound|kill|delay:USEC|sync\n");
	return 2;
}
