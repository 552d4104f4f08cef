/* SPDX-License-Identifier: Apache-2.0 */
/* seatbelt.c -- build the SBPL profile and its parameters for one spawn.

   See seatbelt.h for the rules.  Every path the profile refers to, the
   fixed system ones included, is a parameter: the text is built from
   constants only, so nothing from the host or the scanned tree can change
   how it parses.  */

#include <config.h>

#include "sandbox/seatbelt.h"

#include <errno.h>
#include <string.h>

#include "base/util.h"

const char *const ash_seatbelt_mach_services[] = {
  "com.apple.cfprefsd.daemon",
  "com.apple.cfprefsd.agent",
  "com.apple.logd",
  "com.apple.system.notification_center",
  "com.apple.system.opendirectoryd.libinfo",
  "com.apple.system.opendirectoryd.membership",
  NULL,
};

const char *const ash_seatbelt_mach_services_network[] = {
  "com.apple.SystemConfiguration.configd",
  "com.apple.SystemConfiguration.DNSConfiguration",
  "com.apple.trustd",
  NULL,
};

/* Denied after every allow: LaunchServices (which asks launchd to start an
   app outside the sandbox), the pasteboard and the keychain daemon.  */
static const char *const mach_denied_names[] = {
  "com.apple.coreservices.launchservicesd",
  "com.apple.CoreServices.coreservicesd",
  "com.apple.SecurityServer",
  NULL,
};
static const char *const mach_denied_prefixes[] = {
  "com.apple.lsd.",
  "com.apple.pasteboard.",
  NULL,
};

/* The shared temporary directories, by the names the kernel resolves them
   to and by the links that lead there.  */
static const char *const shared_tmp_dirs[] = {
  "/tmp",
  "/private/tmp",
  "/var/tmp",
  "/private/var/tmp",
  "/private/var/folders",
  NULL,
};

/* Where the system's programs and the dynamic loader's cache live.  */
static const char *const system_exec_dirs[] = {
  "/usr",
  "/bin",
  "/sbin",
  "/System",
  "/Library/Apple",
  "/Library/Developer/CommandLineTools",
  "/private/var/db/dyld",
  NULL,
};

static const char *const system_keychains = "/Library/Keychains";
static const char *const mdns_socket = "/private/var/run/mDNSResponder";
static const char *const null_device = "/dev/null";

struct gen
{
  struct ash_buf *out;
  struct ash_strvec *params; /* NAME=VALUE */
  unsigned n;                /* parameters made so far */
};

/* The name of a parameter holding VALUE, made when there is none yet.  */
static const char *
param_name (struct gen *g, const char *value)
{
  for (size_t i = 0; i < g->params->nr; i++)
    {
      const char *eq = strchr (g->params->v[i], '=');
      if (eq && streq (eq + 1, value))
        return g->params->v[i];
    }
  return ash_strvec_pushf (g->params, "P%u=%s", g->n++, value);
}

/* A list of filters for one rule.  */
struct filters
{
  struct ash_strvec items; /* "subpath\tVALUE" or "literal\tVALUE" */
};

static void
filters_add (struct filters *f, const char *kind, const char *value)
{
  if (!value || value[0] != '/')
    return;
  for (size_t i = 0; i < f->items.nr; i++)
    {
      const char *tab = strchr (f->items.v[i], '\t');
      if (tab && streq (tab + 1, value)
          && strneq (f->items.v[i], kind, (size_t) (tab - f->items.v[i]))
          && strlen (kind) == (size_t) (tab - f->items.v[i]))
        return;
    }
  ash_strvec_pushf (&f->items, "%s\t%s", kind, value);
}

static void
filters_addv (struct filters *f, const char *kind, const char *const *v)
{
  for (; *v; v++)
    filters_add (f, kind, *v);
}

/* Emit "(ACTION OPS FILTER...)" with one filter a line.  A rule with no
   filter would apply everywhere, so none is emitted then.  */
static void
emit_rule (struct gen *g, const char *comment, const char *action,
           const char *ops, struct filters *f)
{
  if (f->items.nr == 0)
    {
      ash_strvec_release (&f->items);
      return;
    }
  ash_buf_addf (g->out, "\n;; %s\n(%s %s", comment, action, ops);
  for (size_t i = 0; i < f->items.nr; i++)
    {
      char *tab = strchr (f->items.v[i], '\t');
      const char *name;
      size_t len;

      *tab = '\0';
      name = param_name (g, tab + 1);
      len = strcspn (name, "=");
      ash_buf_addf (g->out, "\n  (%s (param \"%.*s\"))", f->items.v[i],
                    (int) len, name);
    }
  ash_buf_addstr (g->out, ")\n");
  ash_strvec_release (&f->items);
}

static void
emit_names (struct gen *g, const char *action, const char *filter,
            const char *const *names)
{
  if (!names[0])
    return;
  ash_buf_addf (g->out, "(%s mach-lookup", action);
  for (; *names; names++)
    ash_buf_addf (g->out, "\n  (%s \"%s\")", filter, *names);
  ash_buf_addstr (g->out, ")\n");
}

static bool
is_uv_tool_dir (const struct ash_policy_path *pp)
{
  return pp->rule
         && (strstr (pp->rule, "uv tool directory")
             || strstr (pp->rule, _ ("uv tool directory")));
}

/* A tool path: programs may run from it.  The host caches, the data
   directories, the writable ones and hidden ones are never tool paths.  */
static bool
is_exec_path (const struct ash_policy_path *pp)
{
  return pp->exec && pp->access == ASH_ACCESS_READ;
}

/* Add to F, as literals, DIR and every directory between it and PATH, so
   that a path readable again inside a hidden directory can be reached.  */
static void
add_ancestors (struct filters *f, const char *path, const char *dir)
{
  _cleanup_free_ char *p = xstrdup (path);
  char *slash;

  while ((slash = strrchr (p, '/')) && slash != p)
    {
      *slash = '\0';
      if (!ash_path_is_inside (p, dir))
        break;
      filters_add (f, "literal", p);
    }
}

static const char *
private_uv_cache (const struct ash_policy *policy)
{
  const char *v = ash_strvec_getenv (&policy->private_caches, "UV_CACHE_DIR");
  return v && v[0] == '/' ? v : NULL;
}

void
ash_seatbelt_init (struct ash_seatbelt *sb)
{
  ash_buf_init (&sb->profile);
  ash_strvec_init (&sb->params);
}

void
ash_seatbelt_release (struct ash_seatbelt *sb)
{
  ash_buf_release (&sb->profile);
  ash_strvec_release (&sb->params);
}

int
ash_seatbelt_build (const struct ash_policy *policy,
                    const struct ash_seatbelt_spawn *spawn,
                    struct ash_seatbelt *ret, struct ash_error *err)
{
  static const struct ash_seatbelt_spawn none = { NULL, NULL, NULL };
  struct gen g;
  struct filters f = { ASH_STRVEC_INIT };
  struct ash_strvec hidden = ASH_STRVEC_INIT, noexec = ASH_STRVEC_INIT;
  struct ash_strvec readable = ASH_STRVEC_INIT, rehidden = ASH_STRVEC_INIT;
  const char *uv_cache = private_uv_cache (policy);

  ash_seatbelt_init (ret);
  if (!spawn)
    spawn = &none;
  if (policy->refusal.message)
    return ash_policy_refused (policy, err);
  for (size_t i = 0; i < policy->n_paths; i++)
    if (policy->paths[i].path[0] != '/')
      return ash_error_set (err, -EINVAL,
                            _ ("the sandbox policy names a relative path"));
  if ((spawn->tmpdir && spawn->tmpdir[0] != '/')
      || (spawn->unpack_dir && spawn->unpack_dir[0] != '/')
      || (spawn->cert_file && spawn->cert_file[0] != '/'))
    return ash_error_set (err, -EINVAL,
                          _ ("a private sandbox directory must be absolute"));

  g.out = &ret->profile;
  g.params = &ret->params;
  g.n = 0;

  ash_buf_addstr (g.out, "(version 1)\n");
  ash_buf_addstr (g.out, ";; every path is a parameter (-D NAME=PATH)\n");
  ash_buf_addstr (g.out, "(deny default)\n");
  ash_buf_addstr (g.out, "\n;; processes of this sandbox only\n"
                         "(allow process-fork)\n"
                         "(allow signal (target same-sandbox))\n"
                         "(allow process-info* (target same-sandbox))\n"
                         "(allow sysctl-read)\n"
                         "(allow user-preference-read)\n"
                         "(allow ipc-posix-sem)\n"
                         "(allow ipc-posix-shm)\n");

  /* Reads.  */
  ash_buf_addstr (g.out, "\n;; reads everywhere, except as follows\n"
                         "(allow file-read*)\n");
  if (policy->home)
    ash_strvec_push (&hidden, policy->home);
  if (policy->passwd_home
      && !ash_strvec_contains (&hidden, policy->passwd_home))
    ash_strvec_push (&hidden, policy->passwd_home);
  for (size_t i = 0; i < policy->linked_home_dirs.nr; i++)
    ash_strvec_push (&hidden, policy->linked_home_dirs.v[i]);
  for (const char *const *d = shared_tmp_dirs; *d; d++)
    ash_strvec_push (&hidden, *d);
  for (size_t i = 0; i < policy->n_paths; i++)
    if (policy->paths[i].access == ASH_ACCESS_HIDE)
      ash_strvec_push (&hidden, policy->paths[i].path);
  filters_addv (&f, "subpath", (const char *const *) hidden.v);
  emit_rule (&g,
             "no reads below the homes, the directories links at their top "
             "name, the shared temporary directories and any hidden input",
             "deny", "file-read*", &f);

  for (size_t i = 0; i < policy->n_paths; i++)
    if (policy->paths[i].access != ASH_ACCESS_HIDE)
      ash_strvec_push (&readable, policy->paths[i].path);
  if (policy->results_dir)
    ash_strvec_push (&readable, policy->results_dir);
  if (spawn->tmpdir)
    ash_strvec_push (&readable, spawn->tmpdir);
  if (spawn->unpack_dir)
    ash_strvec_push (&readable, spawn->unpack_dir);
  filters_addv (&f, "subpath", (const char *const *) readable.v);
  if (spawn->cert_file)
    filters_add (&f, "literal", spawn->cert_file);
  emit_rule (&g,
             "the policy's paths, the results directory and the private "
             "directories readable again",
             "allow", "file-read*", &f);

  /* A hidden directory inside one made readable again (the output
     directory inside the source tree) is hidden once more, and what the
     policy shows inside it (the results directory, the converted files)
     is shown again: the last rule that matches decides.  */
  for (size_t i = 0; i < policy->n_paths; i++)
    if (policy->paths[i].access == ASH_ACCESS_HIDE)
      for (size_t j = 0; j < readable.nr; j++)
        if (!streq (readable.v[j], policy->paths[i].path)
            && ash_path_is_inside (policy->paths[i].path, readable.v[j]))
          {
            ash_strvec_push (&rehidden, policy->paths[i].path);
            break;
          }
  filters_addv (&f, "subpath", (const char *const *) rehidden.v);
  emit_rule (&g, "hidden directories inside readable ones hidden again",
             "deny", "file-read*", &f);
  for (size_t j = 0; j < readable.nr; j++)
    for (size_t i = 0; i < rehidden.nr; i++)
      if (ash_path_is_inside (readable.v[j], rehidden.v[i]))
        filters_add (&f, "subpath", readable.v[j]);
  emit_rule (&g, "what the policy shows inside them readable again", "allow",
             "file-read*", &f);

  for (size_t i = 0; i < readable.nr; i++)
    for (size_t j = 0; j < hidden.nr; j++)
      if (ash_path_is_inside (readable.v[i], hidden.v[j]))
        add_ancestors (&f, readable.v[i], hidden.v[j]);
  if (spawn->cert_file)
    for (size_t j = 0; j < hidden.nr; j++)
      if (ash_path_is_inside (spawn->cert_file, hidden.v[j]))
        add_ancestors (&f, spawn->cert_file, hidden.v[j]);
  emit_rule (&g, "the directories on the way to them, metadata only", "allow",
             "file-read-metadata", &f);

  /* Writes.  */
  for (size_t i = 0; i < policy->n_paths; i++)
    if (policy->paths[i].access == ASH_ACCESS_WRITE)
      filters_add (&f, "subpath", policy->paths[i].path);
  filters_add (&f, "subpath", policy->results_dir);
  filters_add (&f, "subpath", spawn->tmpdir);
  filters_add (&f, "subpath", spawn->unpack_dir);
  for (size_t i = 0; i < policy->n_paths; i++)
    if (is_uv_tool_dir (&policy->paths[i]))
      {
        _cleanup_free_ char *lock
          = ash_path_join (policy->paths[i].path, ".lock");
        filters_add (&f, "literal", lock);
      }
  filters_add (&f, "literal", null_device);
  emit_rule (&g,
             "writes only to the results directory, the private directories, "
             "uv's tools-directory lock and the null device",
             "allow", "file-write*", &f);

  /* Programs.  */
  filters_addv (&f, "subpath", system_exec_dirs);
  for (size_t i = 0; i < policy->n_paths; i++)
    if (is_exec_path (&policy->paths[i]))
      filters_add (&f, "subpath", policy->paths[i].path);
  emit_rule (&g, "programs run only from the system and tool paths", "allow",
             "process-exec* file-map-executable", &f);

  for (size_t i = 0; i < policy->n_paths; i++)
    if (!is_exec_path (&policy->paths[i]))
      ash_strvec_push (&noexec, policy->paths[i].path);
  if (policy->results_dir)
    ash_strvec_push (&noexec, policy->results_dir);
  if (spawn->tmpdir)
    ash_strvec_push (&noexec, spawn->tmpdir);
  filters_addv (&f, "subpath", (const char *const *) noexec.v);
  emit_rule (&g,
             "nothing runs from the data, cache, results and private "
             "directories, even inside a tool path",
             "deny", "process-exec* file-map-executable", &f);

  for (size_t i = 0; i < policy->n_paths; i++)
    if (is_exec_path (&policy->paths[i]))
      for (size_t j = 0; j < noexec.nr; j++)
        if (ash_path_is_inside (policy->paths[i].path, noexec.v[j])
            && !streq (policy->paths[i].path, noexec.v[j]))
          filters_add (&f, "subpath", policy->paths[i].path);
  emit_rule (&g, "a tool path inside one of those stays executable", "allow",
             "process-exec* file-map-executable", &f);

  filters_add (&f, "subpath", uv_cache);
  filters_add (&f, "subpath", spawn->unpack_dir);
  emit_rule (&g,
             "the spawn's private uv cache and unpack directory are "
             "executable",
             "allow", "process-exec* file-map-executable", &f);

  /* Mach services.  */
  ash_buf_addstr (g.out, "\n;; Mach services: preferences, logging, "
                         "notifications, user and group lookups\n");
  emit_names (&g, "allow", "global-name", ash_seatbelt_mach_services);
  if (policy->network)
    {
      ash_buf_addstr (g.out, "\n;; with a network: network configuration "
                             "and certificate trust\n");
      emit_names (&g, "allow", "global-name",
                  ash_seatbelt_mach_services_network);
    }

  /* Network.  */
  if (policy->network)
    {
      ash_buf_addstr (g.out,
                      "\n;; network: IP sockets; no Unix socket but the "
                      "resolver's\n"
                      "(allow system-socket)\n"
                      "(allow network-outbound (remote ip))\n"
                      "(allow network-inbound (local ip))\n"
                      "(allow network-bind (local ip))\n");
      /* A Unix socket's path takes the path-literal filter of remote
         unix-socket, which emit_rule does not write.  */
      const char *mdns = param_name (&g, mdns_socket);
      ash_buf_addf (g.out,
                    "(allow network-outbound\n  (remote unix-socket "
                    "(path-literal (param \"%.*s\"))))\n",
                    (int) strcspn (mdns, "="), mdns);
    }
  else
    ash_buf_addstr (g.out, "\n;; no network: no socket of any kind\n");

  /* Last: the denials no allow above can override.  */
  ash_buf_addstr (g.out, "\n;; denied after every allow: LaunchServices, "
                         "the pasteboard, the keychain daemon\n");
  emit_names (&g, "deny", "global-name", mach_denied_names);
  emit_names (&g, "deny", "global-name-prefix", mach_denied_prefixes);

  filters_add (&f, "subpath", system_keychains);
  for (size_t i = 0; i < 2; i++)
    {
      const char *h = i == 0 ? policy->home : policy->passwd_home;
      if (h)
        {
          _cleanup_free_ char *k = ash_path_join (h, "Library/Keychains");
          filters_add (&f, "subpath", k);
        }
    }
  emit_rule (&g, "the keychain files, after every file rule", "deny",
             "file-read* file-write*", &f);

  ash_strvec_release (&hidden);
  ash_strvec_release (&noexec);
  ash_strvec_release (&readable);
  ash_strvec_release (&rehidden);
  return 0;
}
