/* SPDX-License-Identifier: Apache-2.0 */
/* gen-socket-filter.c -- write linux/socket-filter-bpf.h: the BPF program
   of each socket policy, as libseccomp builds it from socket-filter.c's
   rules on this machine, for ash and ash-landlock-exec to carry instead of
   building it on every run.

     gen-socket-filter > linux/socket-filter-bpf.h

   The output depends only on the rules, the architecture and libseccomp's
   version, which it names; it is the same on every run.  */

#include <config.h>

#include "socket-filter.h"

#include <errno.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/filter.h>

#define POLICIES 3

static const char *const policy_names[POLICIES]
  = { "ASH_SOCKETS_NONE", "ASH_SOCKETS_NETWORK", "ASH_SOCKETS_NETNS" };

static void
die (const char *what, const char *why)
{
  fprintf (stderr, "gen-socket-filter: %s: %s\n", what, why);
  exit (EXIT_FAILURE);
}

/* The program of POLICY (malloc'd) and its length in *RET_N.  */
static struct sock_filter *
program (enum ash_socket_policy policy, size_t *ret_n)
{
  char *error = NULL;
  struct stat st;
  int fd = memfd_create ("gen-socket-filter", MFD_CLOEXEC);
  if (fd < 0)
    die ("memfd_create", strerror (errno));
  if (ash_socket_filter_write_bpf (policy, fd, &error) < 0)
    die (policy_names[policy], error ? error : "cannot build the filter");
  if (fstat (fd, &st) < 0)
    die ("fstat", strerror (errno));
  if (st.st_size <= 0 || st.st_size % (off_t) sizeof (struct sock_filter)
      || st.st_size > (off_t) (ASH_SOCKET_FILTER_MAX_INSNS
                               * sizeof (struct sock_filter)))
    die (policy_names[policy], "libseccomp gave no whole BPF program");
  size_t size = (size_t) st.st_size;
  struct sock_filter *insns = malloc (size);
  if (insns == NULL)
    die ("malloc", strerror (ENOMEM));
  for (size_t done = 0; done < size;)
    {
      ssize_t k = pread (fd, (char *) insns + done, size - done, (off_t) done);
      if (k <= 0)
        die ("pread", k < 0 ? strerror (errno) : "short read");
      done += (size_t) k;
    }
  close (fd);
  *ret_n = size / sizeof *insns;
  return insns;
}

int
main (void)
{
  const struct scmp_version *v = seccomp_version ();

  printf ("/* linux/socket-filter-bpf.h: made by gen-socket-filter from the "
          "rules of\n   socket-filter.c with libseccomp %u.%u.%u.  Do not "
          "edit.  */\n\n",
          v->major, v->minor, v->micro);
  printf ("#define ASH_SOCKET_FILTER_PREBUILT 1\n");
  printf ("#define ASH_SOCKET_FILTER_PREBUILT_ARCH 0x%08xU\n",
          seccomp_arch_native ());
  printf ("#define ASH_SOCKET_FILTER_PREBUILT_COUNT %d\n\n", POLICIES);
  /* A test may want the macros alone.  */
  printf ("#ifndef ASH_SOCKET_FILTER_BPF_MACROS_ONLY\n\n");
  for (int p = 0; p < POLICIES; p++)
    {
      size_t n;
      struct sock_filter *insns = program ((enum ash_socket_policy) p, &n);
      printf ("/* %s: %zu instructions.  */\n", policy_names[p], n);
      printf ("static const struct sock_filter ash_socket_filter_bpf_%d[] "
              "= {\n",
              p);
      for (size_t i = 0; i < n; i++)
        printf ("  { 0x%04x, %u, %u, 0x%08xU },\n", insns[i].code, insns[i].jt,
                insns[i].jf, insns[i].k);
      printf ("};\n\n");
      free (insns);
    }
  printf ("static const struct\n{\n  const struct sock_filter *insns;\n"
          "  unsigned short len;\n} ash_socket_filter_prebuilt[] = {\n");
  for (int p = 0; p < POLICIES; p++)
    printf ("  { ash_socket_filter_bpf_%d, sizeof ash_socket_filter_bpf_%d "
            "/ sizeof ash_socket_filter_bpf_%d[0] },\n",
            p, p, p);
  printf ("};\n\n#endif\n");
  if (fflush (stdout) != 0 || ferror (stdout))
    die ("standard output", strerror (errno));
  return 0;
}
