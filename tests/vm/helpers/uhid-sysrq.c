/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Types Alt+SysRq+C on a keyboard made with /dev/uhid, so that the kernel
 * crashes with module frames (uhid, hid) on its stack: uhid_char_write ->
 * hid_input_report -> ... -> sysrq_filter -> sysrq_handle_crash. For the
 * VM rig's oops-module scenario (tests/vm/scenarios/oops-module.sh); built
 * static by tests/vm/helpers/uhid-setup.sh. */
#include <errno.h>
#include <fcntl.h>
#include <linux/uhid.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* the HID boot keyboard: a modifier byte, a reserved one, six keys */
static const unsigned char rdesc[] = {
	0x05, 0x01, 0x09, 0x06, 0xa1, 0x01, 0x05, 0x07, 0x19, 0xe0, 0x29, 0xe7, 0x15, 0x00, 0x25,
	0x01, 0x75, 0x01, 0x95, 0x08, 0x81, 0x02, 0x95, 0x01, 0x75, 0x08, 0x81, 0x01, 0x95, 0x06,
	0x75, 0x08, 0x15, 0x00, 0x25, 0x65, 0x05, 0x07, 0x19, 0x00, 0x29, 0x65, 0x81, 0x00, 0xc0,
};

static int send(int fd, struct uhid_event *ev)
{
	ssize_t n = write(fd, ev, sizeof(*ev));
	if (n != (ssize_t)sizeof(*ev)) {
		fprintf(stderr, "uhid-sysrq: write: %s\n", n < 0 ? strerror(errno) : "short");
		return -1;
	}
	return 0;
}

static int keys(int fd, unsigned char mods, unsigned char k1, unsigned char k2)
{
	struct uhid_event ev;
	memset(&ev, 0, sizeof(ev));
	ev.type = UHID_INPUT2;
	ev.u.input2.size = 8;
	ev.u.input2.data[0] = mods;
	ev.u.input2.data[2] = k1;
	ev.u.input2.data[3] = k2;
	return send(fd, &ev);
}

int main(void)
{
	int fd = open("/dev/uhid", O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		perror("uhid-sysrq: /dev/uhid");
		return 1;
	}
	struct uhid_event ev;
	memset(&ev, 0, sizeof(ev));
	ev.type = UHID_CREATE2;
	strcpy((char *)ev.u.create2.name, "ftlens-uhid-keyboard");
	memcpy(ev.u.create2.rd_data, rdesc, sizeof(rdesc));
	ev.u.create2.rd_size = sizeof(rdesc);
	ev.u.create2.bus = BUS_USB;
	ev.u.create2.vendor = 0x1d6b;
	ev.u.create2.product = 0x0104;
	if (send(fd, &ev) < 0)
		return 1;
	/* the device is added by a worker: wait for UHID_START, then for
	 * hid-generic and the input handlers (sysrq among them) to bind */
	for (int started = 0; !started;) {
		struct pollfd p = { fd, POLLIN, 0 };
		if (poll(&p, 1, 20000) <= 0) {
			fprintf(stderr, "uhid-sysrq: no UHID_START\n");
			return 1;
		}
		if (read(fd, &ev, sizeof(ev)) > 0 && ev.type == UHID_START)
			started = 1;
	}
	sleep(2);
	printf("FTLENS-VM: typing Alt+SysRq+C\n");
	fflush(stdout);
	/* Alt down, SysRq down (usage 0x46), then C (usage 0x06) */
	if (keys(fd, 0x04, 0, 0) < 0 || keys(fd, 0x04, 0x46, 0) < 0 || keys(fd, 0x04, 0x46, 0x06) < 0)
		return 1;
	sleep(5);
	fprintf(stderr, "uhid-sysrq: still alive: the keys did not crash the kernel\n");
	return 1;
}
