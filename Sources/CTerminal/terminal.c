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

int cterminal_read_hidden_line(int fd, char *buffer, int capacity) {
    struct termios before, hidden;
    if (capacity < 1 || tcgetattr(fd, &before) != 0) return -1;
    hidden = before;
    hidden.c_lflag &= ~(ECHO | ECHONL);
    hidden.c_lflag |= ICANON;
    if (tcsetattr(fd, TCSAFLUSH, &hidden) != 0) return -1;
    int length = 0;
    int ended = 0;
    char ch;
    for (;;) {
        ssize_t n = read(fd, &ch, 1);
        if (n <= 0) { ended = (length == 0); break; }
        if (ch == '\n' || ch == '\r') break;
        if (length < capacity - 1) buffer[length++] = ch;
    }
    buffer[length] = 0;
    ch = 0;
    tcsetattr(fd, TCSAFLUSH, &before);
    return ended ? -1 : length;
}
