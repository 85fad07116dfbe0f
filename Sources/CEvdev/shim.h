// Linux evdev force feedback. The ioctl request numbers are function-like macros and
// struct ff_effect holds unions: both are easier to reach from a few static inline helpers.
#include <linux/input.h>
#include <sys/ioctl.h>
#include <string.h>
#include <unistd.h>
#include <errno.h>
#include <time.h>

/// 1 when the device supports FF_RUMBLE, 0 when it does not, -errno when the query failed.
static inline int cevdev_has_rumble(int fd) {
    unsigned long bits[(FF_MAX / (8 * sizeof(unsigned long))) + 1];
    memset(bits, 0, sizeof bits);
    if (ioctl(fd, EVIOCGBIT(EV_FF, sizeof bits), bits) < 0) return -errno;
    return (bits[FF_RUMBLE / (8 * sizeof(unsigned long))] >> (FF_RUMBLE % (8 * sizeof(unsigned long)))) & 1UL ? 1 : 0;
}

/// Uploads a rumble effect; returns its id (>= 0) or -errno.
static inline int cevdev_upload_rumble(int fd, int existing_id, unsigned short strong,
                                       unsigned short weak, unsigned short delay_ms,
                                       unsigned short length_ms) {
    struct ff_effect e;
    memset(&e, 0, sizeof e);
    e.type = FF_RUMBLE;
    e.id = (short)existing_id;
    e.u.rumble.strong_magnitude = strong;
    e.u.rumble.weak_magnitude = weak;
    e.replay.delay = delay_ms;
    e.replay.length = length_ms;
    if (ioctl(fd, EVIOCSFF, &e) < 0) return -errno;
    return e.id;
}

/// Starts (count > 0) or stops (count == 0) an uploaded effect; 0 or -errno.
static inline int cevdev_play(int fd, int effect_id, int count) {
    struct input_event ev;
    memset(&ev, 0, sizeof ev);
    ev.type = EV_FF;
    ev.code = (unsigned short)effect_id;
    ev.value = count;
    ssize_t n = write(fd, &ev, sizeof ev);
    if (n < 0) return -errno;
    return n == (ssize_t)sizeof ev ? 0 : -EIO;
}

/// Removes an uploaded effect; 0 or -errno.
static inline int cevdev_erase(int fd, int effect_id) {
    if (ioctl(fd, EVIOCRMFF, effect_id) < 0) return -errno;
    return 0;
}

// Input devices read for big buttons and switches (SteppieInput).

/// The evdev protocol version (> 0), or -errno (-ENOTTY or -EINVAL: not an evdev device).
static inline int cevdev_version(int fd) {
    int version = 0;
    if (ioctl(fd, EVIOCGVERSION, &version) < 0) return -errno;
    return version;
}

/// Takes (on != 0) or gives back (on == 0) exclusive use of the device; 0 or -errno.
static inline int cevdev_grab(int fd, int on) {
    if (ioctl(fd, EVIOCGRAB, on ? 1 : 0) < 0) return -errno;
    return 0;
}
