/* SPDX-License-Identifier: Apache-2.0 */
/* landlock-exec.c -- ash-landlock-exec: run a command under Landlock and
   the seccomp socket filter, or under the socket filter alone.

   Usage:
     ash-landlock-exec [OPTION]... -- COMMAND [ARG]...
         Landlock mode: restrict a child to the given paths, start COMMAND
         in it, and end every process it leaves behind.
     ash-landlock-exec --socket-filter [--network | --private-network]
                       [--seccomp-fd N] [--new-session]
                       -- COMMAND [ARG]...
         Socket-filter mode (inside bwrap and firejail): install the socket
         filter and exec COMMAND in place.
     ash-landlock-exec --probe
         Print what the kernel supports as one JSON line and exit 0, or
         print why Landlock cannot be used and exit non-zero.
     ash-landlock-exec --supervise -- COMMAND [ARG]...
         Supervise mode (around firejail): neither Landlock nor the filter;
         run COMMAND, a sandbox of its own, and end its whole tree when
         ash dies or on SIGTERM.

   A Landlock rule holds for the file it was opened on: a --ro PATH that is
   a symlink grants read access beneath the link's target (and not the
   directory holding the link), as bwrap's --ro-bind does.  A --rw, --tmpdir
   or --home PATH that is a symlink is refused, since ash never grants write
   access through a link (a results directory reached through one is
   refused before it gets here).  ash itself gives every path as --fd N
   before it: a descriptor it opened once without following a link and
   checked, from which the rule is made, never from the name, so that
   nothing swapped in at that name in between counts.

   In Landlock mode the program stays as the parent of COMMAND: it is a
   child subreaper, so whatever COMMAND forks and abandons is reparented to
   it, and once COMMAND has exited it kills (SIGKILL) and reaps every
   descendant left.  The parent itself is not restricted, so that COMMAND,
   whose Landlock domain is nested below it, can neither signal it (ABI 6)
   nor read its /proc entries.  On SIGTERM, SIGINT or SIGHUP it sends
   SIGTERM to COMMAND's whole tree, waits up to the grace period for
   COMMAND to exit, then kills everything.  ash sends SIGKILL ten seconds
   after SIGTERM, so the grace period must stay below that.

   In both modes --seccomp-fd N hands over the socket filter ash built once
   for all the scanners it starts, as a BPF program in a sealed memfd,
   which is loaded where the filter built here would be, then closed;
   anything but such a descriptor stops the wrapper before the command
   runs.  The descriptor is trusted as the command line is (both come from
   ash): the checks catch a wrong or damaged one, and the loaded filter is
   checked against the policy asked for, but a well-formed filter that
   refuses those sockets and allows something else would pass.

   Only libc and libseccomp are used: this program is the last step before
   the scanner runs, and the smaller it is the easier it is to trust.
   Messages are not translated: ash relays them in its own log.  */

#include <config.h>

#include "landlock-exec.h"
#include "landlock-uapi.h"
#include "socket-filter.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/capability.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Built with AddressSanitizer (make check-sanitize), this program often
   runs inside a sandbox (bwrap's or firejail's, as --socket-filter), which
   passes no ASAN_OPTIONS on and stops the check LeakSanitizer makes at
   exit (it needs ptrace() on the process's own threads): a refusal such as
   "the sandbox does not show PATH" would end with that check's failure
   and its status instead of this program's.  So leak checking is off by
   default here; an ASAN_OPTIONS in the environment still has the last
   word (tests/sh/landlock-exec.sh turns it on).  No other build has
   this.  */
#if defined __SANITIZE_ADDRESS__
#define LANDLOCK_EXEC_ASAN 1
#elif defined __has_feature
#if __has_feature(address_sanitizer)
#define LANDLOCK_EXEC_ASAN 1
#endif
#endif
#ifdef LANDLOCK_EXEC_ASAN
const char *__asan_default_options (void);
const char *
__asan_default_options (void)
{
  return "detect_leaks=0";
}
#endif

#define PROGRAM "ash-landlock-exec"

/* The lowest ABI ash accepts: the first that controls truncation.  */
#define MIN_ABI 3

/* Default seconds between the SIGTERM forwarded to the command's tree and
   the SIGKILL that ends it.  */
#define DEFAULT_GRACE 5

/* Rights for the read-only paths and for the full-access ones (before
   masking with what the kernel's ABI handles).  */
#define RIGHTS_RO                                                             \
  (LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_READ_FILE                  \
   | LANDLOCK_ACCESS_FS_READ_DIR)
#define RIGHTS_RW (~0ULL)
/* Character devices every program expects to write, as in `>/dev/null`
   (which truncates).  */
#define RIGHTS_DEV_RW                                                         \
  (LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_WRITE_FILE               \
   | LANDLOCK_ACCESS_FS_TRUNCATE | LANDLOCK_ACCESS_FS_IOCTL_DEV)
#define RIGHTS_DEV_RO LANDLOCK_ACCESS_FS_READ_FILE
#define RIGHTS_PROC                                                           \
  (LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR)

struct path_rule
{
  const char *path;
  unsigned long long rights;
  bool optional; /* skip silently when it does not exist */
  bool no_link;  /* refuse the path when it is a symlink */
  bool has_fd;   /* --fd: the file is open on FD, and PATH
                    only names it */
  int fd;
};

/* Granted in every Landlock sandbox.  /dev/shm is writable because POSIX
   semaphores live there (multiprocessing needs them); /proc is readable,
   and Landlock's ptrace rules keep other processes' entries out of
   reach.  */
static const struct path_rule builtin_rules[] = {
  { "/dev/null", RIGHTS_DEV_RW, true, false },
  { "/dev/zero", RIGHTS_DEV_RW, true, false },
  { "/dev/full", RIGHTS_DEV_RW, true, false },
  { "/dev/random", RIGHTS_DEV_RO, true, false },
  { "/dev/urandom", RIGHTS_DEV_RO, true, false },
  { "/dev/shm", RIGHTS_RW, true, false },
  { "/proc", RIGHTS_PROC, true, false },
};

struct options
{
  bool probe;
  bool socket_filter;
  bool network;
  bool private_network; /* --socket-filter in a network namespace of its
                           own: IP sockets stay, for its loopback */
  bool new_session;
  bool supervise; /* --supervise: no Landlock, no filter; only end
                     the command's whole tree with the wrapper */
  bool verbose;
  unsigned grace;
  const char *tmpdir;
  const char *home;
  int tmpdir_fd;  /* --fd before --tmpdir, or -1 */
  int home_fd;    /* --fd before --home, or -1 */
  int pending_fd; /* --fd N not yet taken by a path, or -1 */
  int seccomp_fd; /* --seccomp-fd: the socket filter, built, or -1 */
  int ready_fd;   /* --ready-fd: told when the command is about to run */
  unsigned long long not_mount_ns; /* --not-mount-ns, or 0 */
  struct path_rule *rules;
  size_t n_rules;
  char **links; /* NAME=TARGET */
  size_t n_links;
  char **expects; /* PATH=DEV:INO, --expect */
  size_t n_expects;
  const char **hidden; /* --hide: not granted inside a rule */
  size_t n_hidden;
  char **command;
};

static bool probe_mode;

__attribute__ ((format (printf, 2, 3), noreturn)) static void
die (int status, const char *fmt, ...)
{
  va_list ap;

  if (!probe_mode)
    fprintf (stderr, "%s: ", PROGRAM);
  va_start (ap, fmt);
  vfprintf (stderr, fmt, ap);
  va_end (ap);
  fputc ('\n', stderr);
  exit (status);
}

/* The same, for the child between fork and exec.  */
__attribute__ ((format (printf, 2, 3), noreturn)) static void
child_die (int status, const char *fmt, ...)
{
  va_list ap;

  fprintf (stderr, "%s: ", PROGRAM);
  va_start (ap, fmt);
  vfprintf (stderr, fmt, ap);
  va_end (ap);
  fputc ('\n', stderr);
  fflush (stderr);
  _exit (status);
}

__attribute__ ((format (printf, 2, 3))) static void
note (const struct options *o, const char *fmt, ...)
{
  va_list ap;

  if (!o->verbose)
    return;
  fprintf (stderr, "%s: note: ", PROGRAM);
  va_start (ap, fmt);
  vfprintf (stderr, fmt, ap);
  va_end (ap);
  fputc ('\n', stderr);
}

static void *
xrealloc_array (void *p, size_t n, size_t size)
{
  void *q = reallocarray (p, n, size);
  if (q == NULL)
    die (ASH_LANDLOCK_EXIT_SETUP, "out of memory");
  return q;
}

static void
usage (FILE *out)
{
  fprintf (
    out,
    "Usage: %s [OPTION]... -- COMMAND [ARG]...\n"
    "       %s --socket-filter [--network | --private-network]\n"
    "                         [--seccomp-fd N] [--new-session] "
    "[--not-mount-ns=INODE]\n"
    "                         [--ready-fd N] -- COMMAND [ARG]...\n"
    "       %s --probe\n"
    "Run COMMAND restricted by Landlock and the seccomp socket filter.\n"
    "\n"
    "  --ro PATH             read and execute beneath PATH (beneath "
    "its target\n"
    "                        when PATH is a symlink)\n"
    "  --rw PATH             full access beneath PATH (not a "
    "symlink)\n"
    "  --hide PATH           grant nothing beneath PATH, also where "
    "it lies\n"
    "                        inside a --ro or --rw PATH (its names "
    "stay listable)\n"
    "  --tmpdir DIR          private TMPDIR (created if missing; full "
    "access)\n"
    "  --home DIR            private HOME (created if missing; full "
    "access)\n"
    "  --home-link NAME=TARGET  symlink HOME/NAME to TARGET\n"
    "  --fd N                the next --ro, --rw, --tmpdir or --home "
    "PATH is the\n"
    "                        file open on descriptor N (inherited); "
    "PATH only\n"
    "                        names it and is never looked up\n"
    "  --network             allow sockets other than Unix ones\n"
    "  --no-network          refuse every socket (the default)\n"
    "  --seccomp-fd N        load the socket filter from descriptor N "
    "(inherited):\n"
    "                        a BPF program in a memfd sealed against "
    "writing,\n"
    "                        growing, shrinking and new seals, "
    "built by ash for\n"
    "                        the --network, --private-network or "
    "no-network\n"
    "                        policy given; without it the filter is "
    "built here.\n"
    "                        Any other descriptor is a setup failure\n"
    "  --ready-fd N          write one byte to descriptor N (inherited) "
    "and\n"
    "                        close it once the sandbox is set up, just "
    "before\n"
    "                        COMMAND is executed\n"
    "  --grace SECONDS       wait between SIGTERM and SIGKILL "
    "(default %d)\n"
    "  --verbose             note on stderr what the kernel lacks\n"
    "  --socket-filter       install only the socket filter and exec\n"
    "  --expect=PATH=DEV:INO with --socket-filter: refuse to start "
    "COMMAND\n"
    "                        unless PATH is the directory DEV:INO "
    "(repeatable)\n"
    "  --private-network     with --socket-filter: the command has a "
    "network\n"
    "                        namespace of its own; IP sockets stay "
    "for its\n"
    "                        loopback, every other family is "
    "refused\n"
    "  --new-session         with --socket-filter: start a new "
    "session\n"
    "  --not-mount-ns=INODE  with --socket-filter: refuse to start "
    "COMMAND when\n"
    "                        it is in the mount namespace INODE (the "
    "caller's:\n"
    "                        the sandbox around it made none of its "
    "own)\n"
    "  --probe               print the kernel's Landlock support\n"
    "  --supervise           no Landlock and no filter: run COMMAND (a "
    "sandbox\n"
    "                        of its own, such as firejail) and end "
    "its whole\n"
    "                        tree when the wrapper's parent dies or "
    "on SIGTERM\n"
    "\n"
    "Exit status: the command's, 128+N when signal N ended it, %d "
    "Landlock\n"
    "unavailable, %d Landlock ABI below %d, %d usage error, %d setup "
    "failure,\n"
    "%d exec failure.\n",
    PROGRAM, PROGRAM, PROGRAM, DEFAULT_GRACE, ASH_LANDLOCK_EXIT_UNAVAILABLE,
    ASH_LANDLOCK_EXIT_OLD_ABI, MIN_ABI, ASH_LANDLOCK_EXIT_USAGE,
    ASH_LANDLOCK_EXIT_SETUP, ASH_LANDLOCK_EXIT_EXEC);
}

enum
{
  OPT_RO = 256,
  OPT_RW,
  OPT_TMPDIR,
  OPT_HOME,
  OPT_HOME_LINK,
  OPT_NETWORK,
  OPT_NO_NETWORK,
  OPT_GRACE,
  OPT_VERBOSE,
  OPT_SOCKET_FILTER,
  OPT_NEW_SESSION,
  OPT_PRIVATE_NETWORK,
  OPT_EXPECT,
  OPT_PROBE,
  OPT_HIDE,
  OPT_SUPERVISE,
  OPT_FD,
  OPT_SECCOMP_FD,
  OPT_READY_FD,
  OPT_NOT_MOUNT_NS,
  OPT_HELP,
};

static void
add_rule (struct options *o, const char *path, unsigned long long rights)
{
  if (path[0] != '/')
    die (ASH_LANDLOCK_EXIT_USAGE, "'%s' is not an absolute path", path);
  o->rules = xrealloc_array (o->rules, o->n_rules + 1, sizeof *o->rules);
  o->rules[o->n_rules].path = path;
  o->rules[o->n_rules].rights = rights;
  o->rules[o->n_rules].optional = false;
  /* A read-only path that is a symlink grants what it names, as bwrap's
     --ro-bind does; write access goes only to a directory named as
     itself.  */
  o->rules[o->n_rules].no_link = rights != RIGHTS_RO;
  o->rules[o->n_rules].has_fd = o->pending_fd >= 0;
  o->rules[o->n_rules].fd = o->pending_fd;
  o->pending_fd = -1;
  o->n_rules++;
}

/* The descriptor N of the option OPT ("--fd N", "--seccomp-fd N"), made
   close-on-exec here, so that the command never inherits it whatever
   happens.  A word that is not a number above 2 is a usage error; a
   descriptor that is not open exits with CLOSED_STATUS.  */
static int
parse_descriptor (const char *opt, const char *arg, int closed_status)
{
  char *end;
  long v;

  errno = 0;
  v = strtol (arg, &end, 10);
  if (errno != 0 || end == arg || *end != '\0' || v < 3 || v > INT_MAX)
    die (ASH_LANDLOCK_EXIT_USAGE, "%s wants a descriptor above 2, not '%s'",
         opt, arg);
  if (fcntl ((int) v, F_SETFD, FD_CLOEXEC) < 0)
    die (closed_status, "%s %ld: %s", opt, v, strerror (errno));
  return (int) v;
}

/* --fd N: a descriptor the caller opened once, without following a link,
   for the path that follows.  */
static int
parse_fd (const char *arg)
{
  return parse_descriptor ("--fd", arg, ASH_LANDLOCK_EXIT_USAGE);
}

/* --seccomp-fd N: the socket filter as a BPF program, in a sealed memfd
   ash built once (ash_socket_filter_memfd).  A descriptor that is not
   open is a setup failure, as every other wrong descriptor is once it is
   read: the wrapper never runs the command without the filter.  */
static int
parse_seccomp_fd (const char *arg)
{
  return parse_descriptor ("--seccomp-fd", arg, ASH_LANDLOCK_EXIT_SETUP);
}

static void
parse_options (int argc, char **argv, struct options *o)
{
  static const struct option longopts[] = {
    { "ro", required_argument, NULL, OPT_RO },
    { "rw", required_argument, NULL, OPT_RW },
    { "tmpdir", required_argument, NULL, OPT_TMPDIR },
    { "home", required_argument, NULL, OPT_HOME },
    { "home-link", required_argument, NULL, OPT_HOME_LINK },
    { "network", no_argument, NULL, OPT_NETWORK },
    { "no-network", no_argument, NULL, OPT_NO_NETWORK },
    { "grace", required_argument, NULL, OPT_GRACE },
    { "verbose", no_argument, NULL, OPT_VERBOSE },
    { "socket-filter", no_argument, NULL, OPT_SOCKET_FILTER },
    { "new-session", no_argument, NULL, OPT_NEW_SESSION },
    { "private-network", no_argument, NULL, OPT_PRIVATE_NETWORK },
    { "expect", required_argument, NULL, OPT_EXPECT },
    { "probe", no_argument, NULL, OPT_PROBE },
    { "hide", required_argument, NULL, OPT_HIDE },
    { "supervise", no_argument, NULL, OPT_SUPERVISE },
    { "fd", required_argument, NULL, OPT_FD },
    { "seccomp-fd", required_argument, NULL, OPT_SECCOMP_FD },
    { "ready-fd", required_argument, NULL, OPT_READY_FD },
    { "not-mount-ns", required_argument, NULL, OPT_NOT_MOUNT_NS },
    { "help", no_argument, NULL, OPT_HELP },
    { NULL, 0, NULL, 0 },
  };
  bool landlock_options = false, grace_given = false;
  int c;

  memset (o, 0, sizeof *o);
  o->grace = DEFAULT_GRACE;
  o->tmpdir_fd = o->home_fd = o->pending_fd = o->seccomp_fd = -1;
  o->ready_fd = -1;
  opterr = 0;

  /* "+": stop at the first non-option, which starts the command.  */
  while ((c = getopt_long (argc, argv, "+", longopts, NULL)) != -1)
    {
      switch (c)
        {
        case OPT_RO:
          add_rule (o, optarg, RIGHTS_RO);
          landlock_options = true;
          break;
        case OPT_RW:
          add_rule (o, optarg, RIGHTS_RW);
          landlock_options = true;
          break;
        case OPT_FD:
          if (o->pending_fd >= 0)
            die (ASH_LANDLOCK_EXIT_USAGE,
                 "--fd %d is not followed by --ro, "
                 "--rw, --tmpdir or --home",
                 o->pending_fd);
          o->pending_fd = parse_fd (optarg);
          landlock_options = true;
          break;
        case OPT_SECCOMP_FD:
          if (o->seccomp_fd >= 0)
            die (ASH_LANDLOCK_EXIT_USAGE, "--seccomp-fd is given twice");
          o->seccomp_fd = parse_seccomp_fd (optarg);
          break;
        case OPT_READY_FD:
          if (o->ready_fd >= 0)
            die (ASH_LANDLOCK_EXIT_USAGE, "--ready-fd is given twice");
          o->ready_fd
            = parse_descriptor ("--ready-fd", optarg, ASH_LANDLOCK_EXIT_SETUP);
          break;
        case OPT_NOT_MOUNT_NS:
          {
            char *end;
            errno = 0;
            o->not_mount_ns = strtoull (optarg, &end, 10);
            if (errno != 0 || end == optarg || *end != '\0'
                || o->not_mount_ns == 0 || optarg[0] == '-')
              die (ASH_LANDLOCK_EXIT_USAGE,
                   "--not-mount-ns wants the inode number of a mount "
                   "namespace, not '%s'",
                   optarg);
          }
          break;
        case OPT_HIDE:
          if (optarg[0] != '/')
            die (ASH_LANDLOCK_EXIT_USAGE, "'%s' is not an absolute path",
                 optarg);
          o->hidden
            = xrealloc_array (o->hidden, o->n_hidden + 1, sizeof *o->hidden);
          o->hidden[o->n_hidden++] = optarg;
          landlock_options = true;
          break;
        case OPT_TMPDIR:
          if (optarg[0] != '/')
            die (ASH_LANDLOCK_EXIT_USAGE, "'%s' is not an absolute path",
                 optarg);
          o->tmpdir = optarg;
          o->tmpdir_fd = o->pending_fd;
          o->pending_fd = -1;
          landlock_options = true;
          break;
        case OPT_HOME:
          if (optarg[0] != '/')
            die (ASH_LANDLOCK_EXIT_USAGE, "'%s' is not an absolute path",
                 optarg);
          o->home = optarg;
          o->home_fd = o->pending_fd;
          o->pending_fd = -1;
          landlock_options = true;
          break;
        case OPT_HOME_LINK:
          if (strchr (optarg, '=') == NULL)
            die (ASH_LANDLOCK_EXIT_USAGE,
                 "--home-link wants NAME=TARGET, not '%s'", optarg);
          o->links
            = xrealloc_array (o->links, o->n_links + 1, sizeof *o->links);
          o->links[o->n_links++] = optarg;
          landlock_options = true;
          break;
        case OPT_NETWORK:
          o->network = true;
          break;
        case OPT_NO_NETWORK:
          o->network = false;
          break;
        case OPT_GRACE:
          {
            char *end;
            unsigned long v;
            errno = 0;
            v = strtoul (optarg, &end, 10);
            if (errno != 0 || end == optarg || *end != '\0' || v > 60)
              die (ASH_LANDLOCK_EXIT_USAGE,
                   "--grace wants a number of seconds from 0 to 60, not '%s'",
                   optarg);
            o->grace = (unsigned) v;
            grace_given = true;
          }
          break;
        case OPT_VERBOSE:
          o->verbose = true;
          break;
        case OPT_SOCKET_FILTER:
          o->socket_filter = true;
          break;
        case OPT_SUPERVISE:
          o->supervise = true;
          break;
        case OPT_NEW_SESSION:
          o->new_session = true;
          break;
        case OPT_PRIVATE_NETWORK:
          o->private_network = true;
          break;
        case OPT_EXPECT:
          if (optarg[0] != '/' || strchr (optarg, '=') == NULL)
            die (ASH_LANDLOCK_EXIT_USAGE,
                 "--expect wants PATH=DEV:INO, not '%s'", optarg);
          o->expects = xrealloc_array (o->expects, o->n_expects + 1,
                                       sizeof *o->expects);
          o->expects[o->n_expects++] = optarg;
          break;
        case OPT_PROBE:
          o->probe = true;
          probe_mode = true;
          break;
        case OPT_HELP:
          usage (stdout);
          exit (0);
        case ':':
          die (ASH_LANDLOCK_EXIT_USAGE, "option '%s' needs an argument",
               argv[optind - 1]);
        default:
          die (ASH_LANDLOCK_EXIT_USAGE, "unknown option '%s'",
               argv[optind - 1]);
        }
    }

  if (o->pending_fd >= 0)
    die (ASH_LANDLOCK_EXIT_USAGE,
         "--fd %d is not followed by --ro, --rw, "
         "--tmpdir or --home",
         o->pending_fd);
  if (grace_given && !o->supervise)
    landlock_options = true;
  if (o->probe)
    {
      if (optind != argc || o->socket_filter || landlock_options
          || o->supervise || o->seccomp_fd >= 0 || o->ready_fd >= 0
          || o->not_mount_ns)
        die (ASH_LANDLOCK_EXIT_USAGE, "--probe takes no other arguments");
      return;
    }
  if (o->supervise
      && (o->socket_filter || landlock_options || o->network
          || o->private_network || o->new_session || o->n_expects
          || o->seccomp_fd >= 0 || o->ready_fd >= 0 || o->not_mount_ns))
    die (ASH_LANDLOCK_EXIT_USAGE,
         "--supervise takes only --grace and --verbose");
  if (o->socket_filter && landlock_options)
    die (ASH_LANDLOCK_EXIT_USAGE,
         "--socket-filter takes only --network, --no-network, "
         "--private-network, --expect, --seccomp-fd, --new-session, "
         "--not-mount-ns and --ready-fd");
  if (!o->socket_filter && o->not_mount_ns)
    die (ASH_LANDLOCK_EXIT_USAGE,
         "--not-mount-ns is for --socket-filter, inside another sandbox");
  if (!o->socket_filter && o->private_network)
    die (ASH_LANDLOCK_EXIT_USAGE,
         "--private-network is for --socket-filter; under Landlock every "
         "socket family is refused without a network");
  if (o->private_network && o->network)
    die (ASH_LANDLOCK_EXIT_USAGE,
         "--private-network and --network exclude each other");
  if (!o->socket_filter && o->new_session)
    die (ASH_LANDLOCK_EXIT_USAGE,
         "--new-session is for --socket-filter; Landlock mode always starts "
         "a new session");
  if (optind >= argc)
    die (ASH_LANDLOCK_EXIT_USAGE, "no command given");
  o->command = argv + optind;
}

/* Ask the kernel for its Landlock ABI; on failure exit with the spec's
   reason.  */
static int
landlock_abi (void)
{
  int abi
    = ash_landlock_create_ruleset (NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
  if (abi < 0)
    {
      int e = errno;
      if (e == ENOSYS)
        die (ASH_LANDLOCK_EXIT_UNAVAILABLE,
             "Landlock is not available (the kernel is built without "
             "Landlock)");
      if (e == EOPNOTSUPP)
        die (ASH_LANDLOCK_EXIT_UNAVAILABLE,
             "Landlock is not available (the kernel has Landlock, but it is "
             "not enabled at boot)");
      die (ASH_LANDLOCK_EXIT_UNAVAILABLE,
           "Landlock is not available (landlock_create_ruleset: %s)",
           strerror (e));
    }
  if (abi < MIN_ABI)
    die (ASH_LANDLOCK_EXIT_OLD_ABI,
         "Landlock ABI %d is below 3 (Linux 6.2), use bwrap, a kernel with "
         "Landlock ABI 3 or later, or container mode",
         abi);
  return abi;
}

/* The filesystem rights ABI handles: drop what each older version lacks,
   one version at a time.  */
static unsigned long long
fs_rights_for_abi (int abi)
{
  unsigned long long rights = ASH_LANDLOCK_FS_ABI5;

  if (abi < 5)
    rights &= ~LANDLOCK_ACCESS_FS_IOCTL_DEV;
  if (abi < 3)
    rights &= ~LANDLOCK_ACCESS_FS_TRUNCATE;
  if (abi < 2)
    rights &= ~LANDLOCK_ACCESS_FS_REFER;
  return rights;
}

static void
ruleset_attr_for (const struct options *o, int abi,
                  struct ash_landlock_ruleset_attr *attr)
{
  memset (attr, 0, sizeof *attr);
  attr->handled_access_fs = fs_rights_for_abi (abi);
  /* TCP rules are a second layer behind the socket filter: with no
     network, handle bind and connect and allow no port.  With a network,
     leave TCP alone.  */
  if (abi >= 4 && !o->network)
    attr->handled_access_net
      = (LANDLOCK_ACCESS_NET_BIND_TCP | LANDLOCK_ACCESS_NET_CONNECT_TCP);
  if (abi >= 6)
    attr->scoped
      = (LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET | LANDLOCK_SCOPE_SIGNAL);
}

static int
create_ruleset (const struct ash_landlock_ruleset_attr *attr)
{
  int fd = ash_landlock_create_ruleset (attr, sizeof *attr, 0);
  if (fd < 0)
    die (ASH_LANDLOCK_EXIT_SETUP, "cannot create a Landlock ruleset: %s",
         strerror (errno));
  return fd;
}

/* Whether PATH lies strictly inside DIR, both absolute and
   normalised.  */
static bool
strictly_inside (const char *path, const char *dir)
{
  size_t n = strlen (dir);

  while (n > 1 && dir[n - 1] == '/')
    n--;
  if (n == 1 && dir[0] == '/')
    return path[0] == '/' && path[1] != '\0';
  return strncmp (path, dir, n) == 0 && path[n] == '/' && path[n + 1] != '\0';
}

static bool
is_hidden (const struct options *o, const char *path)
{
  for (size_t i = 0; i < o->n_hidden; i++)
    if (strcmp (o->hidden[i], path) == 0)
      return true;
  return false;
}

static bool
holds_hidden (const struct options *o, const char *dir)
{
  for (size_t i = 0; i < o->n_hidden; i++)
    if (strictly_inside (o->hidden[i], dir))
      return true;
  return false;
}

static void
add_fd_rule (int ruleset_fd, int fd, unsigned long long allowed,
             const char *path)
{
  struct ash_landlock_path_beneath_attr pb;

  memset (&pb, 0, sizeof pb);
  pb.allowed_access = allowed;
  pb.parent_fd = fd;
  if (allowed != 0
      && ash_landlock_add_rule (ruleset_fd, LANDLOCK_RULE_PATH_BENEATH, &pb, 0)
           < 0)
    die (ASH_LANDLOCK_EXIT_SETUP, "cannot add a Landlock rule for '%s': %s",
         path, strerror (errno));
}

/* Grant RIGHTS beneath the directory DIR_FD, named PATH, except beneath
   the hidden paths inside it.  Landlock grants a whole hierarchy, so the
   directory itself gets only the right to list it (the names below it,
   hidden ones included, stay listable), and each entry beside the way to
   a hidden path gets RIGHTS, opened relative to DIR_FD without following
   a link.  A link gets no rule: what it names is reached through that
   path's own rules.  */
static void
add_rules_around (int ruleset_fd, unsigned long long handled, int dir_fd,
                  const char *path, unsigned long long rights,
                  const struct options *o)
{
  DIR *d;
  struct dirent *de;
  int lfd;

  add_fd_rule (ruleset_fd, dir_fd,
               rights & handled & LANDLOCK_ACCESS_FS_READ_DIR, path);
  lfd = openat (dir_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (lfd < 0 || (d = fdopendir (lfd)) == NULL)
    die (ASH_LANDLOCK_EXIT_SETUP, "cannot read the directory '%s': %s", path,
         strerror (errno));
  while ((de = readdir (d)) != NULL)
    {
      char *child;
      struct stat st;
      int cfd;

      if (strcmp (de->d_name, ".") == 0 || strcmp (de->d_name, "..") == 0)
        continue;
      if (asprintf (&child, "%s%s%s", path,
                    path[strlen (path) - 1] == '/' ? "" : "/", de->d_name)
          < 0)
        die (ASH_LANDLOCK_EXIT_SETUP, "out of memory");
      if (is_hidden (o, child))
        {
          free (child);
          continue;
        }
      cfd = openat (dir_fd, de->d_name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
      if (cfd < 0 || fstat (cfd, &st) < 0 || S_ISLNK (st.st_mode))
        {
          if (cfd >= 0)
            close (cfd);
          free (child);
          continue;
        }
      if (S_ISDIR (st.st_mode) && holds_hidden (o, child))
        add_rules_around (ruleset_fd, handled, cfd, child, rights, o);
      else
        add_fd_rule (ruleset_fd, cfd,
                     rights & handled
                       & (S_ISDIR (st.st_mode) ? ~0ULL
                                               : ASH_LANDLOCK_FS_FILE_RIGHTS),
                     child);
      close (cfd);
      free (child);
    }
  closedir (d);
}

static void
add_path_rule (int ruleset_fd, unsigned long long handled,
               const struct path_rule *rule, const struct options *o)
{
  struct ash_landlock_path_beneath_attr pb;
  struct stat st;
  int fd;

  /* A path handed over as a descriptor is never looked up: the rule is
     made for the very file the caller opened and checked, whatever is at
     its name now.  With O_NOFOLLOW, O_PATH opens a symlink itself rather
     than failing.  */
  if (rule->has_fd)
    fd = fcntl (rule->fd, F_DUPFD_CLOEXEC, 3);
  else
    fd = open (rule->path,
               O_PATH | O_CLOEXEC | (rule->no_link ? O_NOFOLLOW : 0));
  if (fd < 0 && rule->has_fd)
    die (ASH_LANDLOCK_EXIT_SETUP, "cannot use descriptor %d for '%s': %s",
         rule->fd, rule->path, strerror (errno));
  if (fd < 0)
    {
      /* A path that does not exist grants nothing, and one the user cannot
         reach could not be used anyway.  */
      if (errno == ENOENT || errno == ENOTDIR || errno == EACCES)
        {
          if (!rule->optional)
            note (o, "not granting '%s': %s", rule->path, strerror (errno));
          return;
        }
      die (ASH_LANDLOCK_EXIT_SETUP, "cannot open '%s': %s", rule->path,
           strerror (errno));
    }
  if (fstat (fd, &st) < 0)
    die (ASH_LANDLOCK_EXIT_SETUP, "cannot stat '%s': %s", rule->path,
         strerror (errno));
  if (rule->no_link && S_ISLNK (st.st_mode))
    die (ASH_LANDLOCK_EXIT_SETUP,
         "'%s' is a symlink: full access is "
         "granted only to a path that is not one",
         rule->path);

  if (S_ISDIR (st.st_mode) && holds_hidden (o, rule->path))
    {
      add_rules_around (ruleset_fd, handled, fd, rule->path, rule->rights, o);
      close (fd);
      return;
    }

  memset (&pb, 0, sizeof pb);
  pb.allowed_access = rule->rights & handled;
  if (!S_ISDIR (st.st_mode))
    pb.allowed_access &= ASH_LANDLOCK_FS_FILE_RIGHTS;
  pb.parent_fd = fd;
  if (pb.allowed_access != 0
      && ash_landlock_add_rule (ruleset_fd, LANDLOCK_RULE_PATH_BENEATH, &pb, 0)
           < 0)
    die (ASH_LANDLOCK_EXIT_SETUP, "cannot add a Landlock rule for '%s': %s",
         rule->path, strerror (errno));
  close (fd);
}

/* Create DIR (mode 0700) unless it is a directory already; with FD (not
   -1), DIR is the directory open on FD, and is only checked.  */
static void
ensure_dir (const char *dir, int fd)
{
  struct stat st;

  if (fd >= 0)
    {
      if (fstat (fd, &st) < 0)
        die (ASH_LANDLOCK_EXIT_SETUP, "cannot stat '%s': %s", dir,
             strerror (errno));
      if (!S_ISDIR (st.st_mode))
        die (ASH_LANDLOCK_EXIT_SETUP, "'%s' is not a directory", dir);
      return;
    }
  if (mkdir (dir, 0700) == 0)
    return;
  if (errno != EEXIST)
    die (ASH_LANDLOCK_EXIT_SETUP, "cannot create '%s': %s", dir,
         strerror (errno));
  if (lstat (dir, &st) < 0)
    die (ASH_LANDLOCK_EXIT_SETUP, "cannot stat '%s': %s", dir,
         strerror (errno));
  if (!S_ISDIR (st.st_mode))
    die (ASH_LANDLOCK_EXIT_SETUP, "'%s' is not a directory", dir);
}

/* Create HOME/NAME as a symlink to TARGET, creating the directories of
   NAME inside HOME.  NAME is relative and has no "." or ".." component;
   every step is taken relative to a directory fd without following links,
   so nothing is created outside HOME.  */
static void
make_home_link (const char *home, int home_fd, const char *spec)
{
  const char *eq = strchr (spec, '=');
  size_t name_len = (size_t) (eq - spec);
  const char *target = eq + 1;
  char *name;
  char *component;
  char *slash;
  int dirfd;

  if (name_len == 0 || spec[0] == '/' || target[0] == '\0')
    die (ASH_LANDLOCK_EXIT_USAGE,
         "--home-link wants NAME=TARGET with a "
         "relative NAME, not '%s'",
         spec);
  name = strndup (spec, name_len);
  if (name == NULL)
    die (ASH_LANDLOCK_EXIT_SETUP, "out of memory");

  dirfd = home_fd >= 0 ? fcntl (home_fd, F_DUPFD_CLOEXEC, 3)
                       : open (home, O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (dirfd < 0)
    die (ASH_LANDLOCK_EXIT_SETUP, "cannot open '%s': %s", home,
         strerror (errno));

  component = name;
  for (;;)
    {
      slash = strchr (component, '/');
      if (slash != NULL)
        *slash = '\0';
      if (component[0] == '\0' || strcmp (component, ".") == 0
          || strcmp (component, "..") == 0)
        die (ASH_LANDLOCK_EXIT_USAGE,
             "--home-link name '%.*s' has an empty, "
             "'.' or '..' component",
             (int) name_len, spec);
      if (slash == NULL)
        break;
      if (mkdirat (dirfd, component, 0700) < 0 && errno != EEXIST)
        die (ASH_LANDLOCK_EXIT_SETUP, "cannot create '%s' in '%s': %s",
             component, home, strerror (errno));
      int sub = openat (dirfd, component,
                        O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      if (sub < 0)
        die (ASH_LANDLOCK_EXIT_SETUP, "cannot open '%s' in '%s': %s",
             component, home, strerror (errno));
      close (dirfd);
      dirfd = sub;
      component = slash + 1;
    }

  if (symlinkat (target, dirfd, component) < 0)
    {
      char buf[PATH_MAX];
      ssize_t n;

      /* Already there and the same: fine (the backend may repeat).  */
      if (errno != EEXIST
          || (n = readlinkat (dirfd, component, buf, sizeof buf - 1)) < 0
          || (buf[n] = '\0', strcmp (buf, target) != 0))
        die (ASH_LANDLOCK_EXIT_SETUP,
             "cannot create the link '%.*s' in "
             "'%s': %s",
             (int) name_len, spec, home,
             errno == EEXIST || errno == EINVAL ? "a different file is there"
                                                : strerror (errno));
    }
  close (dirfd);
  free (name);
}

/* Whether a socket of FAMILY and TYPE can be created (and closed at
   once).  */
static bool
socket_opens (int family, int type)
{
  int fd = socket (family, type | SOCK_CLOEXEC, 0);
  if (fd < 0)
    return false;
  close (fd);
  return true;
}

/* Fail unless the socket filter really refuses a Unix socket, and, for the
   policies that refuse more, a socket of a family the policy refuses (an
   IP one without a network, a netlink one in a network namespace of its
   own).  A filter that loaded but does not act, or a filter handed over
   by descriptor that was built for a weaker policy than the one asked
   for, would otherwise go unnoticed.  */
static int
check_filter (enum ash_socket_policy sockets)
{
  if (socket_opens (AF_UNIX, SOCK_STREAM))
    return -1;
  if (sockets == ASH_SOCKETS_NONE && socket_opens (AF_INET, SOCK_DGRAM))
    return -1;
  if (sockets == ASH_SOCKETS_NETNS && socket_opens (AF_NETLINK, SOCK_RAW))
    return -1;
  return 0;
}

/* Install the socket filter for SOCKETS: the one handed over as
   SECCOMP_FD (closed here, loaded or not), or, when that is -1, the one
   built here.  */
static void
install_socket_filter_or_die (enum ash_socket_policy sockets, int seccomp_fd,
                              bool in_child)
{
  char *error = NULL;
  int r;

  if (seccomp_fd >= 0)
    {
      r = ash_socket_filter_install_fd (seccomp_fd, &error);
      close (seccomp_fd);
    }
  else
    r = ash_socket_filter_install (sockets, &error);

  if (r < 0)
    {
      if (in_child)
        child_die (ASH_LANDLOCK_EXIT_SETUP, "%s",
                   error ? error : strerror (-r));
      die (ASH_LANDLOCK_EXIT_SETUP, "%s", error ? error : strerror (-r));
    }
  if (check_filter (sockets) < 0)
    {
      const char *what = sockets == ASH_SOCKETS_NONE ? "Unix and IP sockets"
                         : sockets == ASH_SOCKETS_NETNS
                           ? "Unix and netlink sockets"
                           : "Unix sockets";
      if (in_child)
        child_die (ASH_LANDLOCK_EXIT_SETUP,
                   "the socket filter loaded but does not refuse %s", what);
      die (ASH_LANDLOCK_EXIT_SETUP,
           "the socket filter loaded but does not refuse %s", what);
    }
}

/* --expect PATH=DEV:INO: the sandbox must show the scanner PATH, and the
   very directory the backend saw on the host (a backend that puts an
   empty tmpfs over it, as firejail does over /var/tmp, would otherwise
   have the scanner find nothing and pass).  Opened without following a
   link.  */
static void
check_expects (const struct options *o)
{
  for (size_t i = 0; i < o->n_expects; i++)
    {
      const char *arg = o->expects[i];
      const char *eq = strrchr (arg, '=');
      unsigned long long dev, ino;
      char *path;
      struct stat st;
      int fd;

      if (sscanf (eq + 1, "%llu:%llu", &dev, &ino) != 2)
        die (ASH_LANDLOCK_EXIT_USAGE, "--expect wants PATH=DEV:INO, not '%s'",
             arg);
      path = strndup (arg, (size_t) (eq - arg));
      if (path == NULL)
        die (ASH_LANDLOCK_EXIT_SETUP, "out of memory");
      /* Opened for reading: the scanner's user (an unprivileged account
         when ash runs as root) must be able to read it, too.  */
      fd = open (path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      if (fd < 0 && errno == EACCES)
        die (ASH_LANDLOCK_EXIT_SETUP,
             "the scanner's user (uid %ld) cannot "
             "read %s (%s)",
             (long) getuid (), path, strerror (errno));
      if (fd < 0)
        die (ASH_LANDLOCK_EXIT_SETUP,
             "the sandbox does not show %s to the "
             "scanner (%s)",
             path, strerror (errno));
      if (fstat (fd, &st) < 0)
        die (ASH_LANDLOCK_EXIT_SETUP, "cannot examine %s in the sandbox: %s",
             path, strerror (errno));
      if ((unsigned long long) st.st_dev != dev
          || (unsigned long long) st.st_ino != ino)
        die (ASH_LANDLOCK_EXIT_SETUP,
             "the sandbox does not show %s to the "
             "scanner (another file is there in its place)",
             path);
      close (fd);
      free (path);
    }
}

/* --not-mount-ns INODE: the backend around the wrapper must have given
   it a mount namespace of its own (firejail, finding itself inside
   another sandbox, runs the command without one of its own, and says so
   only without --quiet).  */
static void
check_mount_ns (const struct options *o)
{
  struct stat st;

  if (!o->not_mount_ns)
    return;
  if (stat ("/proc/self/ns/mnt", &st) < 0)
    die (ASH_LANDLOCK_EXIT_SETUP,
         "cannot tell the sandbox's mount namespace (/proc/self/ns/mnt: %s)",
         strerror (errno));
  if ((unsigned long long) st.st_ino == o->not_mount_ns)
    die (ASH_LANDLOCK_EXIT_SETUP,
         "the sandbox did not give the command a mount namespace of its "
         "own (it runs in ash's, %llu)",
         o->not_mount_ns);
}

/* --ready-fd N: the sandbox is set up and the command is about to be
   executed.  A byte that cannot be written is no reason to stop: it only
   makes ash probe the backend again.  */
static void
tell_ready (const struct options *o)
{
  if (o->ready_fd < 0)
    return;
  if (write (o->ready_fd, "1", 1) < 0)
    {
      /* Nothing to do: see above.  */
    }
  close (o->ready_fd);
}

static int
run_socket_filter (const struct options *o)
{
  check_mount_ns (o);
  check_expects (o);
  if (o->new_session && setsid () < 0)
    die (ASH_LANDLOCK_EXIT_SETUP, "cannot start a new session: %s",
         strerror (errno));
  install_socket_filter_or_die (o->network           ? ASH_SOCKETS_NETWORK
                                : o->private_network ? ASH_SOCKETS_NETNS
                                                     : ASH_SOCKETS_NONE,
                                o->seccomp_fd, false);
  tell_ready (o);
  execvp (o->command[0], o->command);
  die (ASH_LANDLOCK_EXIT_EXEC, "cannot execute '%s': %s", o->command[0],
       strerror (errno));
}

/* --probe: check that a ruleset can be enforced and the socket filter
   loaded, in a throwaway child, then describe the kernel's support.  */
static int
run_probe (void)
{
  struct options none;
  struct ash_landlock_ruleset_attr attr;
  int abi = landlock_abi ();
  int ruleset_fd;
  int pipefd[2];
  pid_t pid;
  int status;
  char msg[512];
  ssize_t n;

  memset (&none, 0, sizeof none);
  ruleset_attr_for (&none, abi, &attr);
  ruleset_fd = create_ruleset (&attr);

  if (pipe2 (pipefd, O_CLOEXEC) < 0)
    die (ASH_LANDLOCK_EXIT_SETUP, "cannot create a pipe: %s",
         strerror (errno));
  fflush (stdout);
  pid = fork ();
  if (pid < 0)
    die (ASH_LANDLOCK_EXIT_SETUP, "cannot fork: %s", strerror (errno));
  if (pid == 0)
    {
      char *error = NULL;
      const char *what = NULL;

      close (pipefd[0]);
      if (prctl (PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0
          || ash_landlock_restrict_self (ruleset_fd, 0) < 0)
        {
          snprintf (msg, sizeof msg,
                    "Landlock is not available (landlock_restrict_self: %s)",
                    strerror (errno));
          what = msg;
        }
      else if (ash_socket_filter_install (ASH_SOCKETS_NONE, &error) < 0)
        {
          snprintf (msg, sizeof msg,
                    "the seccomp socket filter cannot be installed (%s)",
                    error ? error : "unknown error");
          what = msg;
        }
      /* Only the Unix-socket part is checked: what the message says.  */
      else if (check_filter (ASH_SOCKETS_NETWORK) < 0)
        what = "the seccomp socket filter cannot be installed (it loaded "
               "but does not refuse Unix sockets)";
      if (what != NULL)
        {
          if (write (pipefd[1], what, strlen (what)) < 0)
            _exit (ASH_LANDLOCK_EXIT_SETUP);
          _exit (what == msg && strncmp (msg, "Landlock", 8) == 0
                   ? ASH_LANDLOCK_EXIT_UNAVAILABLE
                   : ASH_LANDLOCK_EXIT_SETUP);
        }
      _exit (0);
    }
  close (pipefd[1]);
  close (ruleset_fd);
  n = read (pipefd[0], msg, sizeof msg - 1);
  msg[n > 0 ? n : 0] = '\0';
  close (pipefd[0]);
  while (waitpid (pid, &status, 0) < 0)
    if (errno != EINTR)
      die (ASH_LANDLOCK_EXIT_SETUP, "cannot wait for the probe: %s",
           strerror (errno));
  if (!WIFEXITED (status) || WEXITSTATUS (status) != 0)
    die (WIFEXITED (status) ? WEXITSTATUS (status) : ASH_LANDLOCK_EXIT_SETUP,
         "%s", msg[0] ? msg : "the Landlock probe failed");

  printf ("{\"abi\":%d,\"truncate\":%s,\"ioctl_dev\":%s,\"net_tcp\":%s,"
          "\"scope_abstract_unix_socket\":%s,\"scope_signal\":%s,"
          "\"socket_filter\":true}\n",
          abi, abi >= 3 ? "true" : "false", abi >= 5 ? "true" : "false",
          abi >= 4 ? "true" : "false", abi >= 6 ? "true" : "false",
          abi >= 6 ? "true" : "false");
  if (fflush (stdout) != 0)
    die (ASH_LANDLOCK_EXIT_SETUP, "cannot write: %s", strerror (errno));
  return 0;
}

/* One process: its pid and its parent's.  */
struct proc
{
  pid_t pid;
  pid_t ppid;
};

/* Read every process's parent from /proc.  Returns the count, and the
   array in *RET (to free), or -1.  */
static ssize_t
list_processes (struct proc **ret)
{
  DIR *d = opendir ("/proc");
  struct dirent *de;
  struct proc *procs = NULL;
  size_t n = 0;

  if (d == NULL)
    return -1;
  while ((de = readdir (d)) != NULL)
    {
      char path[64];
      char buf[512];
      char *end;
      const char *p;
      long pid;
      int fd;
      ssize_t len;
      long ppid;

      pid = strtol (de->d_name, &end, 10);
      if (*end != '\0' || pid <= 0)
        continue;
      snprintf (path, sizeof path, "/proc/%ld/stat", pid);
      fd = open (path, O_RDONLY | O_CLOEXEC);
      if (fd < 0)
        continue;
      len = read (fd, buf, sizeof buf - 1);
      close (fd);
      if (len <= 0)
        continue;
      buf[len] = '\0';
      /* "pid (comm) state ppid ...": comm may hold anything, so look for
         the last ')'.  */
      p = strrchr (buf, ')');
      if (p == NULL || p[1] != ' ' || p[2] == '\0' || p[3] != ' ')
        continue;
      ppid = strtol (p + 4, &end, 10);
      if (end == p + 4)
        continue;
      procs = xrealloc_array (procs, n + 1, sizeof *procs);
      procs[n].pid = (pid_t) pid;
      procs[n].ppid = (pid_t) ppid;
      n++;
    }
  closedir (d);
  *ret = procs;
  return (ssize_t) n;
}

static int
proc_by_ppid (const void *a, const void *b)
{
  const struct proc *x = a, *y = b;

  return (x->ppid > y->ppid) - (x->ppid < y->ppid);
}

/* Send SIG to every descendant of this process.  Returns how many were
   found, or -1 when /proc cannot be read.  Direct children are ours to
   reap, so their pids cannot be reused under us; deeper ones can in
   theory exit and be replaced between the scan and the kill, which is why
   the final sweep works one generation at a time and relies on
   reparenting to us.  The processes are sorted by parent, so that the
   tree is found in O(n log n), whatever its shape: one scan of /proc
   costs the same for 30,000 zombies as for 30.  */
static ssize_t
signal_descendants (int sig)
{
  struct proc *procs = NULL;
  ssize_t n = list_processes (&procs);
  pid_t *tree;
  size_t n_tree = 0;
  pid_t self = getpid ();

  if (n <= 0)
    {
      free (procs);
      return n < 0 ? -1 : 0;
    }
  qsort (procs, (size_t) n, sizeof *procs, proc_by_ppid);
  tree = xrealloc_array (NULL, (size_t) n + 1, sizeof *tree);
  tree[n_tree++] = self;
  /* Breadth-first: the children of each process already in the tree.
     Each process has one parent, so none is added twice; the bound keeps
     a snapshot made inconsistent by reused pids from overrunning.  */
  for (size_t i = 0; i < n_tree; i++)
    {
      size_t lo = 0, hi = (size_t) n;

      while (lo < hi)
        {
          size_t mid = lo + (hi - lo) / 2;

          if (procs[mid].ppid < tree[i])
            lo = mid + 1;
          else
            hi = mid;
        }
      for (size_t j = lo; j < (size_t) n && procs[j].ppid == tree[i]; j++)
        if (procs[j].pid != self && n_tree < (size_t) n + 1)
          tree[n_tree++] = procs[j].pid;
    }
  for (size_t i = 1; i < n_tree; i++)
    kill (tree[i], sig);
  free (tree);
  free (procs);
  return (ssize_t) n_tree - 1;
}

static int
status_to_exit (int status)
{
  if (WIFEXITED (status))
    return WEXITSTATUS (status);
  if (WIFSIGNALED (status))
    return 128 + WTERMSIG (status);
  return ASH_LANDLOCK_EXIT_SETUP;
}

/* How long kill_everything() waits, without /proc, for children it
   cannot find to exit, in 10 ms steps: 5 seconds.  */
#define BLIND_WAIT_STEPS 500

/* Reap every child that has exited, without waiting.  Records the
   command's status when it is among them.  Returns how many were reaped,
   or -1 when no child is left at all.  */
static ssize_t
reap_exited (pid_t command, bool *command_done, int *command_status)
{
  ssize_t reaped = 0;

  for (;;)
    {
      int status;
      pid_t pid = waitpid (-1, &status, __WALL | WNOHANG);

      if (pid < 0)
        {
          if (errno == EINTR)
            continue;
          return reaped > 0 ? reaped : -1; /* ECHILD: nothing left */
        }
      if (pid == 0)
        return reaped;
      reaped++;
      if (pid == command && !*command_done)
        {
          *command_done = true;
          *command_status = status;
        }
    }
}

/* Kill and reap everything below us.  Killing a process reparents its
   children to us (we are a subreaper), so repeat until no child is left.
   Records the command's status when it is among the reaped.

   The command leads a session and process group of its own whose id is
   its pid, and run_landlock() leaves the command unreaped, so that id
   cannot have passed to another process: one kill() of the group ends
   all of the command's tree that stayed in it, whether or not /proc can
   be read.  What left the group (setsid, setpgid) is found through /proc.
   Without /proc such a process cannot be found, and waiting for it could
   block for good: the wait is then bounded, and it is left behind with a
   message.  */
static void
kill_everything (pid_t command, bool *command_done, int *command_status)
{
  int idle = 0;

  if (!*command_done)
    {
      kill (-command, SIGKILL);
      /* The common case: the command exited and left nothing.  Every
         living descendant has a chain of parents up to this process (we
         are a subreaper: an orphan comes to us), so when no child is left
         once the command is reaped, nothing is left at all, and /proc
         need not be read.  The group was signalled first, while the
         command's zombie still held its id.  */
      siginfo_t si;
      int status;

      memset (&si, 0, sizeof si);
      if (waitid (P_PID, (id_t) command, &si,
                  WEXITED | WNOHANG | WNOWAIT | __WALL)
            == 0
          && si.si_pid == command)
        {
          while (waitpid (command, &status, __WALL) < 0 && errno == EINTR)
            ;
          *command_done = true;
          *command_status = status;
          pid_t pid;
          while ((pid = waitpid (-1, &status, __WALL | WNOHANG)) < 0
                 && errno == EINTR)
            ;
          if (pid < 0 && errno == ECHILD)
            return;
          /* Something is left (or was just reaped): the loop below finds
             the rest through /proc.  */
        }
    }
  for (;;)
    {
      int status;
      pid_t pid;
      ssize_t found = signal_descendants (SIGKILL);

      /* Every zombie there is now goes in one pass before /proc is read
         again: a scanner that leaves tens of thousands of them costs a
         few scans, not one per zombie.  */
      ssize_t reaped = reap_exited (command, command_done, command_status);
      if (reaped < 0)
        break;
      if (reaped > 0)
        {
          idle = 0;
          continue;
        }
      /* Nothing has exited yet: wait for one (without /proc, for a
         bounded time).  */
      pid = waitpid (-1, &status, __WALL | (found < 0 ? WNOHANG : 0));
      if (pid < 0)
        {
          if (errno == EINTR)
            continue;
          break; /* ECHILD: nothing left */
        }
      if (pid == 0)
        {
          struct timespec ts = { 0, 10000000L };

          if (++idle > BLIND_WAIT_STEPS)
            {
              fprintf (stderr,
                       "%s: cannot read /proc to find the processes "
                       "the command left outside its process group; not "
                       "waiting for them\n",
                       PROGRAM);
              break;
            }
          nanosleep (&ts, NULL);
          continue;
        }
      idle = 0;
      if (pid == command && !*command_done)
        {
          *command_done = true;
          *command_status = status;
        }
    }
}

/* Drop every capability, for good: the bounding set, the ambient set, and
   the effective, permitted and inheritable sets, so that not even an exec
   as root gives any back.  Landlock confines a privileged process too, but
   not entirely: with CAP_SYS_PTRACE a sandboxed process can read
   /proc/<pid>/environ of processes outside its domain.  A process that has
   no capabilities (any ordinary user) cannot drop the bounding set and
   does not need to, since no_new_privs keeps exec from adding any.  */
static void
drop_capabilities (void)
{
  struct __user_cap_header_struct header = { _LINUX_CAPABILITY_VERSION_3, 0 };
  struct __user_cap_data_struct data[2];

  memset (data, 0, sizeof data);
  if (syscall (SYS_capget, &header, data) < 0)
    child_die (ASH_LANDLOCK_EXIT_SETUP, "cannot read capabilities: %s",
               strerror (errno));
  if (data[0].permitted == 0 && data[1].permitted == 0
      && data[0].effective == 0 && data[1].effective == 0)
    return;

  for (int cap = 0; cap < 64; cap++)
    if (prctl (PR_CAPBSET_DROP, cap, 0, 0, 0) < 0 && errno != EINVAL)
      child_die (ASH_LANDLOCK_EXIT_SETUP, "cannot drop capability %d: %s", cap,
                 strerror (errno));
  if (prctl (PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) < 0
      && errno != EINVAL)
    child_die (ASH_LANDLOCK_EXIT_SETUP,
               "cannot clear ambient capabilities: "
               "%s",
               strerror (errno));
  memset (data, 0, sizeof data);
  header.version = _LINUX_CAPABILITY_VERSION_3;
  header.pid = 0;
  if (syscall (SYS_capset, &header, data) < 0)
    child_die (ASH_LANDLOCK_EXIT_SETUP, "cannot drop capabilities: %s",
               strerror (errno));
}

static void
child_exec (const struct options *o, int ruleset_fd, const sigset_t *oldmask,
            pid_t parent)
{
  /* A new session: no controlling terminal to inject keystrokes into.
     The child of a fork is never a process group leader, so this
     succeeds.  */
  if (setsid () < 0)
    child_die (ASH_LANDLOCK_EXIT_SETUP, "cannot start a new session: %s",
               strerror (errno));
  /* Should the wrapper itself be killed outright, take the command with
     it.  Had it died already, between fork() and here, the signal would
     never come: we would have been reparented, so check.  */
  if (prctl (PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0)
    child_die (ASH_LANDLOCK_EXIT_SETUP,
               "cannot set the parent death "
               "signal: %s",
               strerror (errno));
  if (getppid () != parent)
    _exit (ASH_LANDLOCK_EXIT_SETUP);

  if (o->supervise)
    {
      /* The command (firejail) confines itself; a setuid program loses
         the parent-death signal on exec, which is why we stay.  */
      if (sigprocmask (SIG_SETMASK, oldmask, NULL) < 0)
        child_die (ASH_LANDLOCK_EXIT_SETUP,
                   "cannot restore the signal mask: %s", strerror (errno));
      execvp (o->command[0], o->command);
      child_die (ASH_LANDLOCK_EXIT_EXEC, "cannot execute '%s': %s",
                 o->command[0], strerror (errno));
    }
  if (o->home != NULL && setenv ("HOME", o->home, 1) < 0)
    child_die (ASH_LANDLOCK_EXIT_SETUP, "cannot set HOME: %s",
               strerror (errno));
  if (o->tmpdir != NULL && setenv ("TMPDIR", o->tmpdir, 1) < 0)
    child_die (ASH_LANDLOCK_EXIT_SETUP, "cannot set TMPDIR: %s",
               strerror (errno));

  if (prctl (PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
    child_die (ASH_LANDLOCK_EXIT_SETUP, "cannot set no_new_privs: %s",
               strerror (errno));
  if (ash_landlock_restrict_self (ruleset_fd, 0) < 0)
    child_die (ASH_LANDLOCK_EXIT_SETUP,
               "cannot enforce the Landlock "
               "ruleset: %s",
               strerror (errno));
  close (ruleset_fd);
  install_socket_filter_or_die (o->network ? ASH_SOCKETS_NETWORK
                                           : ASH_SOCKETS_NONE,
                                o->seccomp_fd, true);
  drop_capabilities ();
  /* The scanned data, as the scanner will see it.  */
  fflush (stderr);
  check_expects (o);

  if (sigprocmask (SIG_SETMASK, oldmask, NULL) < 0)
    child_die (ASH_LANDLOCK_EXIT_SETUP, "cannot restore the signal mask: %s",
               strerror (errno));
  tell_ready (o);
  execvp (o->command[0], o->command);
  child_die (ASH_LANDLOCK_EXIT_EXEC, "cannot execute '%s': %s", o->command[0],
             strerror (errno));
}

static int
run_landlock (const struct options *o)
{
  struct ash_landlock_ruleset_attr attr;
  sigset_t mask, oldmask;
  int abi = o->supervise ? 0 : landlock_abi ();
  int ruleset_fd = -1;
  pid_t command;
  bool command_done = false;
  int command_status = 0;
  int term_signal = 0;
  struct timespec deadline = { 0, 0 };

  /* Supervise mode skips the Landlock ruleset, which is built here, step
     after step, in one stretch: a jump over it to the supervision common
     to both modes reads plainer than nesting the whole of it.  This
     program uses nothing of lib/, so no cleanup attribute is involved.  */
  if (o->supervise)
    goto supervise;
  if (abi < 4 && !o->network)
    note (o,
          "Landlock ABI %d has no TCP rules; the socket filter alone "
          "refuses sockets",
          abi);
  if (abi < 6)
    note (o,
          "Landlock ABI %d has no scoping: abstract Unix sockets and "
          "signals to processes outside the sandbox are not restricted",
          abi);

  if (o->tmpdir != NULL)
    ensure_dir (o->tmpdir, o->tmpdir_fd);
  if (o->home != NULL)
    {
      ensure_dir (o->home, o->home_fd);
      for (size_t i = 0; i < o->n_links; i++)
        make_home_link (o->home, o->home_fd, o->links[i]);
    }
  else if (o->n_links > 0)
    die (ASH_LANDLOCK_EXIT_USAGE, "--home-link needs --home");

  ruleset_attr_for (o, abi, &attr);
  ruleset_fd = create_ruleset (&attr);
  for (size_t i = 0; i < sizeof builtin_rules / sizeof builtin_rules[0]; i++)
    add_path_rule (ruleset_fd, attr.handled_access_fs, &builtin_rules[i], o);
  for (size_t i = 0; i < o->n_rules; i++)
    add_path_rule (ruleset_fd, attr.handled_access_fs, &o->rules[i], o);
  if (o->tmpdir != NULL)
    {
      struct path_rule r = { o->tmpdir, RIGHTS_RW,         false,
                             true,      o->tmpdir_fd >= 0, o->tmpdir_fd };
      add_path_rule (ruleset_fd, attr.handled_access_fs, &r, o);
    }
  if (o->home != NULL)
    {
      struct path_rule r
        = { o->home, RIGHTS_RW, false, true, o->home_fd >= 0, o->home_fd };
      add_path_rule (ruleset_fd, attr.handled_access_fs, &r, o);
    }

supervise:
  /* Orphans below us come to us rather than to init, so that none
     survives the command.  */
  if (prctl (PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) < 0)
    die (ASH_LANDLOCK_EXIT_SETUP, "cannot become a child subreaper: %s",
         strerror (errno));

  /* A SIGCHLD ignored by whoever started us would make the kernel reap
     our children itself.  */
  signal (SIGCHLD, SIG_DFL);
  sigemptyset (&mask);
  sigaddset (&mask, SIGCHLD);
  sigaddset (&mask, SIGTERM);
  sigaddset (&mask, SIGINT);
  sigaddset (&mask, SIGHUP);
  if (sigprocmask (SIG_BLOCK, &mask, &oldmask) < 0)
    die (ASH_LANDLOCK_EXIT_SETUP, "cannot block signals: %s",
         strerror (errno));

  /* Should whoever started us (ash) be killed outright, end the whole
     tree as for a SIGTERM: the command's detached descendants, which a
     parent-death signal of their own would not reach, are found and
     killed by the teardown.  Until here ash's SIGKILL parent-death
     signal, kept across exec, covered us, so no death can slip between
     the two.  */
  if (prctl (PR_SET_PDEATHSIG, SIGTERM, 0, 0, 0) < 0)
    die (ASH_LANDLOCK_EXIT_SETUP, "cannot set the parent death signal: %s",
         strerror (errno));

  fflush (NULL);
  pid_t self = getpid ();
  command = fork ();
  if (command < 0)
    die (ASH_LANDLOCK_EXIT_SETUP, "cannot fork: %s", strerror (errno));
  if (command == 0)
    child_exec (o, ruleset_fd, &oldmask, self);
  if (ruleset_fd >= 0)
    close (ruleset_fd);
  /* The child loads the filter from its own copy.  */
  if (o->seccomp_fd >= 0)
    close (o->seccomp_fd);

  for (;;)
    {
      siginfo_t info;
      struct timespec timeout, now;
      int status;
      int sig;

      /* Reap orphans as they exit, but leave the command a zombie: its
         pid is the id of its process group, which kill_everything()
         signals, and must not be reused before then.  waitid() with
         WNOWAIT shows the first exited child without reaping it.  */
      for (;;)
        {
          siginfo_t si;

          memset (&si, 0, sizeof si);
          if (waitid (P_ALL, 0, &si, WEXITED | WNOHANG | WNOWAIT | __WALL) < 0
              || si.si_pid == 0 || si.si_pid == command)
            break;
          while (waitpid (si.si_pid, &status, __WALL) < 0 && errno == EINTR)
            ;
        }
      memset (&info, 0, sizeof info);
      if (waitid (P_PID, (id_t) command, &info,
                  WEXITED | WNOHANG | WNOWAIT | __WALL)
            == 0
          && info.si_pid == command)
        break;

      if (term_signal != 0)
        {
          clock_gettime (CLOCK_MONOTONIC, &now);
          timeout.tv_sec = deadline.tv_sec - now.tv_sec;
          timeout.tv_nsec = deadline.tv_nsec - now.tv_nsec;
          if (timeout.tv_nsec < 0)
            {
              timeout.tv_nsec += 1000000000L;
              timeout.tv_sec--;
            }
          if (timeout.tv_sec < 0)
            break;
          sig = sigtimedwait (&mask, &info, &timeout);
        }
      else
        sig = sigwaitinfo (&mask, &info);

      if (sig < 0)
        {
          if (errno == EAGAIN)
            break; /* the grace period is over */
          continue;
        }
      if (sig != SIGCHLD && term_signal == 0)
        {
          term_signal = sig;
          signal_descendants (SIGTERM);
          clock_gettime (CLOCK_MONOTONIC, &deadline);
          deadline.tv_sec += o->grace;
        }
    }

  kill_everything (command, &command_done, &command_status);
  if (!command_done)
    return 128 + (term_signal ? term_signal : SIGKILL);
  return status_to_exit (command_status);
}

int
main (int argc, char **argv)
{
  struct options o;
  int status;

  parse_options (argc, argv, &o);
  if (o.probe)
    status = run_probe ();
  else if (o.socket_filter)
    status = run_socket_filter (&o);
  else
    status = run_landlock (&o);
  free (o.rules);
  free (o.links);
  free (o.expects);
  free (o.hidden);
  return status;
}
