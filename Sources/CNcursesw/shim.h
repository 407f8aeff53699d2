#ifndef SWIFTDASH_CNCURSESW_SHIM_H
#define SWIFTDASH_CNCURSESW_SHIM_H
// The only C swiftdash has: ncursesw's macros and globals wrapped in functions that
// Swift 6 can call, and async-signal-safe handlers that restore the terminal.
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif
#include <locale.h>
#include <wchar.h>
#include <signal.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <poll.h>
#include <errno.h>
#include <sys/time.h>
#include <ncursesw/curses.h>
#include <ncursesw/term.h>

/// 0: the terminal can run a full-screen program; 1: ncurses does not know TERM;
/// 2: it cannot address the cursor (TERM=dumb). Checked before initscr, which would exit.
static inline int sd_terminal_usable(const char *term) {
    int err = 0;
    if (setupterm(term, STDOUT_FILENO, &err) != OK) return 1;
    const char *cup = tigetstr("cup");
    int usable = cup != NULL && cup != (const char *)-1;
    del_curterm(cur_term);
    return usable ? 0 : 2;
}

/// COLUMNS and LINES in the environment override the terminal's size in ncurses, at start and at
/// every resize after. Exported by a shell or a CI runner they are stale, so while the terminal
/// can say its own size they are removed (swiftdash gives its children their own values).
static inline void sd_prefer_terminal_size(void) {
    struct winsize ws;
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0 && ws.ws_row > 0) {
        unsetenv("COLUMNS");
        unsetenv("LINES");
    }
}

/// Starts ncurses on the terminal at standard output, reading its keys from `input` (the pipe
/// swiftdash writes the keys it read from the terminal into). 0 when ncurses refused.
static inline int sd_newterm(FILE *input) {
    return newterm(NULL, stdout, input) != NULL;
}

static inline WINDOW *sd_stdscr(void) { return stdscr; }
static inline int sd_cols(void) { return COLS; }
static inline int sd_lines(void) { return LINES; }
static inline int sd_colors(void) { return COLORS; }
static inline int sd_color_pairs(void) { return COLOR_PAIRS; }
static inline int sd_getmaxx(WINDOW *w) { int y, x; getmaxyx(w, y, x); (void)y; return x; }
static inline int sd_getmaxy(WINDOW *w) { int y, x; getmaxyx(w, y, x); (void)x; return y; }

/// Where ncurses believes the terminal's cursor is (after doupdate).
static inline int sd_cursor_y(void) { return getcury(curscr); }
static inline int sd_cursor_x(void) { return getcurx(curscr); }

static inline attr_t sd_a_normal(void) { return A_NORMAL; }
static inline attr_t sd_a_bold(void) { return A_BOLD; }
static inline attr_t sd_a_dim(void) { return A_DIM; }
static inline attr_t sd_a_italic(void) { return A_ITALIC; }
static inline attr_t sd_a_underline(void) { return A_UNDERLINE; }
static inline attr_t sd_a_reverse(void) { return A_REVERSE; }
/// Marks the blanks under a cluster written around ncurses (decision 28): no other cell has
/// it, so ncurses rewrites them when the frame puts anything else there.
static inline attr_t sd_a_invis(void) { return A_INVIS; }

static inline int sd_key_code_yes(void) { return KEY_CODE_YES; }
static inline int sd_key_resize(void) { return KEY_RESIZE; }
static inline int sd_key_mouse(void) { return KEY_MOUSE; }
static inline int sd_key_up(void) { return KEY_UP; }
static inline int sd_key_down(void) { return KEY_DOWN; }
static inline int sd_key_left(void) { return KEY_LEFT; }
static inline int sd_key_right(void) { return KEY_RIGHT; }
static inline int sd_key_home(void) { return KEY_HOME; }
static inline int sd_key_end(void) { return KEY_END; }
static inline int sd_key_ppage(void) { return KEY_PPAGE; }
static inline int sd_key_npage(void) { return KEY_NPAGE; }
static inline int sd_key_enter(void) { return KEY_ENTER; }
static inline int sd_key_btab(void) { return KEY_BTAB; }
static inline int sd_key_backspace(void) { return KEY_BACKSPACE; }
static inline int sd_key_dc(void) { return KEY_DC; }
static inline int sd_key_ic(void) { return KEY_IC; }
static inline int sd_key_f0(void) { return KEY_F0; }

static inline mmask_t sd_mouse_mask(void) {
    return BUTTON1_PRESSED | BUTTON1_CLICKED | BUTTON1_RELEASED | BUTTON4_PRESSED | BUTTON5_PRESSED;
}
static inline int sd_mouse_kind(mmask_t b) {
    if (b & BUTTON4_PRESSED) return 4;
    if (b & BUTTON5_PRESSED) return 5;
    if (b & (BUTTON1_PRESSED | BUTTON1_CLICKED)) return 1;
    if (b & BUTTON1_RELEASED) return 2;
    return 0;
}

// --- Restoring the terminal on signals and crashes -------------------------------

// Storage lives in function-local statics: a header-level static is not emitted when
// Swift imports the header, a static inside an inline function is.
static inline int *sd_wake_fd_slot(void) { static int fd = -1; return &fd; }
static inline volatile sig_atomic_t *sd_signal_slot(void) { static volatile sig_atomic_t s = 0; return &s; }
static inline struct termios *sd_termios_slot(void) { static struct termios t; return &t; }
static inline int *sd_have_termios_slot(void) { static int have = 0; return &have; }

/// Records the terminal's state before curses changes it.
static inline void sd_save_termios(void) {
    if (tcgetattr(STDIN_FILENO, sd_termios_slot()) == 0) *sd_have_termios_slot() = 1;
}

/// The loop did not end within 0.8 s of a quit signal (a turn that never returns): the
/// terminal is put back here and the process ends of the signal it was sent.
static void sd_quit_deadline(int sig) {
    (void)sig;
    static const char reset[] = "\033[0m\033[?1000l\033[?1002l\033[?1006l\033[?2004l\033[?25h\033[?1049l\r\n";
    ssize_t r = write(STDOUT_FILENO, reset, sizeof(reset) - 1); (void)r;
    if (*sd_have_termios_slot()) tcsetattr(STDIN_FILENO, TCSANOW, sd_termios_slot());
    // Keys still queued are not typed into the shell (tcflush is async-signal-safe).
    tcflush(STDIN_FILENO, TCIFLUSH);
    int q = (int)*sd_signal_slot();
    if (q == 0) q = SIGTERM;
    signal(q, SIG_DFL);
    raise(q);
    _exit(128 + q);
}

static void sd_quit_signal(int sig) {
    *sd_signal_slot() = sig;
    // Whatever the loop is doing, the process ends within a second (sd_quit_deadline).
    struct itimerval deadline;
    memset(&deadline, 0, sizeof deadline);
    deadline.it_value.tv_usec = 800000;
    setitimer(ITIMER_REAL, &deadline, NULL);
    int fd = *sd_wake_fd_slot();
    if (fd >= 0) { char c = 'q'; ssize_t r = write(fd, &c, 1); (void)r; }
}

static void sd_crash_signal(int sig) {
    // Only async-signal-safe calls: leave the alternate screen, show the cursor, turn the
    // mouse off, put the tty modes back, then die of the same signal.
    static const char reset[] = "\033[0m\033[?1000l\033[?1002l\033[?1006l\033[?2004l\033[?25h\033[?1049l\r\n";
    ssize_t r = write(STDOUT_FILENO, reset, sizeof(reset) - 1); (void)r;
    if (*sd_have_termios_slot()) tcsetattr(STDIN_FILENO, TCSANOW, sd_termios_slot());
    tcflush(STDIN_FILENO, TCIFLUSH);
    signal(sig, SIG_DFL);
    raise(sig);
}

/// SIGINT, SIGTERM, SIGHUP and SIGQUIT (Ctrl-\) wake the loop, which quits and restores
/// the terminal; SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT and SIGTRAP restore it before dying.
static inline void sd_install_signal_handlers(int wake_fd) {
    *sd_wake_fd_slot() = wake_fd;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = sd_quit_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    // Ctrl-\ sends SIGQUIT, whose default (dump core, keep every terminal mode) would
    // leave the alternate screen, a hidden cursor, and mouse and keypad modes on.
    sigaction(SIGQUIT, &sa, NULL);
    struct sigaction da;
    memset(&da, 0, sizeof da);
    da.sa_handler = sd_quit_deadline;
    sigemptyset(&da.sa_mask);
    sigaction(SIGALRM, &da, NULL);
    struct sigaction ca;
    memset(&ca, 0, sizeof ca);
    ca.sa_handler = sd_crash_signal;
    sigemptyset(&ca.sa_mask);
    int crash[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP };
    for (unsigned i = 0; i < sizeof crash / sizeof crash[0]; i++) sigaction(crash[i], &ca, NULL);
}

static inline struct sigaction *sd_old_winch_slot(void) { static struct sigaction sa; return &sa; }

static void sd_winch_signal(int sig) {
    // ncurses' own handler marks the resize (wget_wch then returns KEY_RESIZE) ...
    struct sigaction *old = sd_old_winch_slot();
    if (old->sa_handler != SIG_DFL && old->sa_handler != SIG_IGN && old->sa_handler != NULL) old->sa_handler(sig);
    // ... and the wake pipe wakes the main thread, whichever thread the signal landed on.
    int fd = *sd_wake_fd_slot();
    if (fd >= 0) { char c = 'w'; ssize_t r = write(fd, &c, 1); (void)r; }
}

/// Call after initscr(): chains SIGWINCH to ncurses' handler and the wake pipe. In a
/// process with several threads the signal may land on any of them, so poll() on the
/// main thread cannot rely on EINTR.
static inline void sd_forward_winch(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = sd_winch_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    sigaction(SIGWINCH, &sa, sd_old_winch_slot());
}

static inline int sd_signal_received(void) { return (int)*sd_signal_slot(); }

/// Turns off XON/XOFF flow control, so Ctrl-S (save in the Edit Widget form) and Ctrl-Q
/// reach the program instead of pausing the terminal. endwin() restores the shell's modes.
static inline void sd_disable_flow_control(void) {
    struct termios t;
    if (tcgetattr(STDIN_FILENO, &t) != 0) return;
    t.c_iflag &= ~(tcflag_t)(IXON | IXOFF);
    tcsetattr(STDIN_FILENO, TCSANOW, &t);
    // ncurses applies its own copy of the modes on every nonl(), cbreak()...: refresh it.
    def_prog_mode();
}

/// Waits up to `timeout_ms` for standard input; 1 when it is readable.
static inline int sd_wait_stdin(int timeout_ms) {
    struct pollfd fd;
    fd.fd = STDIN_FILENO; fd.events = POLLIN; fd.revents = 0;
    return poll(&fd, 1, timeout_ms) > 0 && (fd.revents & POLLIN) ? 1 : 0;
}

/// Waits until stdin or the wake pipe is readable, or `timeout_ms` passes (-1: forever).
/// Returns a bit set: 1 stdin, 2 wake pipe, 4 interrupted by a signal (SIGWINCH).
static inline int sd_wait(int wake_read_fd, int timeout_ms) {
    struct pollfd fds[2];
    fds[0].fd = STDIN_FILENO; fds[0].events = POLLIN; fds[0].revents = 0;
    fds[1].fd = wake_read_fd; fds[1].events = POLLIN; fds[1].revents = 0;
    int n = poll(fds, 2, timeout_ms);
    if (n < 0) return errno == EINTR ? 4 : 0;
    int r = 0;
    if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) r |= 1;
    if (fds[1].revents & POLLIN) r |= 2;
    return r;
}

// ---- Waiting for an absolute wall-clock deadline (decision 26) ----
#include <sys/timerfd.h>
#include <sys/inotify.h>
#include <time.h>

/// A CLOCK_REALTIME timer file descriptor (non-blocking, close-on-exec), or -1.
static inline int sd_timerfd_create(void) {
    return timerfd_create(CLOCK_REALTIME, TFD_NONBLOCK | TFD_CLOEXEC);
}

/// Arms `fd` to fire at the absolute wall-clock time sec.nsec, and to be cancelled (read
/// fails with ECANCELED) whenever the wall clock is set: an NTP step, `date -s`, or the
/// jump the clock makes when a suspended machine resumes. A zero time disarms it.
static inline int sd_timerfd_arm(int fd, long long sec, long nsec) {
    struct itimerspec its;
    memset(&its, 0, sizeof its);
    its.it_value.tv_sec = (time_t)sec;
    its.it_value.tv_nsec = nsec;
    int flags = (sec == 0 && nsec == 0) ? 0 : (TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET);
    return timerfd_settime(fd, flags, &its, NULL);
}

/// Reads a timer fd: 1 fired, 2 the clock was set (cancelled), 0 nothing yet.
static inline int sd_timerfd_read(int fd) {
    unsigned long long n = 0;
    ssize_t r = read(fd, &n, sizeof n);
    if (r == (ssize_t)sizeof n) return 1;
    if (r < 0 && errno == ECANCELED) return 2;
    return 0;
}

/// An inotify fd watching `dir` for files created, replaced, changed or removed, or -1.
static inline int sd_inotify_dir(const char *dir) {
    int fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    if (fd < 0) return -1;
    if (inotify_add_watch(fd, dir, IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_ATTRIB) < 0) {
        close(fd);
        return -1;
    }
    return fd;
}

/// Drains an inotify fd; returns 1 if any event names `name` (e.g. "localtime").
static inline int sd_inotify_drain(int fd, const char *name) {
    char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
    int hit = 0;
    for (;;) {
        ssize_t len = read(fd, buf, sizeof buf);
        if (len <= 0) break;
        for (char *p = buf; p < buf + len;) {
            struct inotify_event *e = (struct inotify_event *)p;
            if (e->len > 0 && strcmp(e->name, name) == 0) hit = 1;
            p += sizeof(struct inotify_event) + e->len;
        }
    }
    return hit;
}

/// Waits on up to 8 fds (negative ones skipped) with no timeout: the deadline is a timer fd
/// among them. Returns a bit set of the readable ones (bit i for fds[i]), or -1 on EINTR.
static inline int sd_wait_fds(const int *fds, int count) {
    struct pollfd p[8];
    int n = count > 8 ? 8 : count;
    for (int i = 0; i < n; i++) { p[i].fd = fds[i]; p[i].events = POLLIN; p[i].revents = 0; }
    int r = poll(p, (nfds_t)n, -1);
    if (r < 0) return -1;
    int bits = 0;
    for (int i = 0; i < n; i++) if (p[i].revents & (POLLIN | POLLHUP | POLLERR)) bits |= (1 << i);
    return bits;
}
#endif
