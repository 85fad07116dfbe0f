#include "cterminal.h"
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

// ioctl is variadic and the termios flags are macros: Swift can call neither directly.

static struct termios saved;
static int saved_valid = 0;

int cterminal_window_size(int fd, int *rows, int *cols) {
    struct winsize ws;
    if (ioctl(fd, TIOCGWINSZ, &ws) != 0 || ws.ws_col == 0) return -1;
    *rows = ws.ws_row;
    *cols = ws.ws_col;
    return 0;
}

int cterminal_enter_raw(int fd) {
    struct termios t;
    if (tcgetattr(fd, &t) != 0) return -1;
    if (!saved_valid) { saved = t; saved_valid = 1; }
    t.c_lflag &= ~(ICANON | ECHO | ISIG | IEXTEN);
    t.c_iflag &= ~(IXON | ICRNL);
    t.c_cc[VMIN] = 0;
    t.c_cc[VTIME] = 0;
    return tcsetattr(fd, TCSAFLUSH, &t);
}

void cterminal_restore(int fd) {
    if (saved_valid) tcsetattr(fd, TCSAFLUSH, &saved);
}
