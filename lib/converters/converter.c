/* SPDX-License-Identifier: Apache-2.0 */
/* converter.c -- what every converter shares: its result row, the map
   from converted files back to their originals, and the escaping of names
   taken from the scanned tree.  */

#include <config.h>

#include <stdio.h>
#include <string.h>

#include "base/buf.h"
#include "base/util.h"
#include "converters/converter.h"
#include "fs/tree.h"

static const char *const status_names[] = {
  [ASH_CONVERTER_PASSED] = "PASSED",
  [ASH_CONVERTER_FAILED] = "FAILED",
  [ASH_CONVERTER_MISSING] = "MISSING",
  [ASH_CONVERTER_SKIPPED] = "SKIPPED",
};

const char *
ash_converter_status_name (enum ash_converter_status s)
{
  if ((unsigned) s >= ARRAY_SIZE (status_names))
    return "FAILED";
  return status_names[s];
}

void
ash_converter_result_init (struct ash_converter_result *r, const char *name)
{
  memset (r, 0, sizeof *r);
  r->name = xstrdup (name);
  r->status = ASH_CONVERTER_SKIPPED;
  r->converted = json_array ();
  r->refused_inputs = json_array ();
  r->failed_inputs = json_array ();
  r->skipped_entries = json_array ();
  if (!r->converted || !r->refused_inputs || !r->failed_inputs
      || !r->skipped_entries)
    ash_oom ();
}

void
ash_converter_result_release (struct ash_converter_result *r)
{
  free (r->name);
  free (r->reason);
  json_decref (r->converted);
  json_decref (r->refused_inputs);
  json_decref (r->failed_inputs);
  json_decref (r->skipped_entries);
  json_decref (r->sandbox);
  memset (r, 0, sizeof *r);
}

static void
add_input (json_t *list, const char *input, const char *reason)
{
  json_t *o = json_pack ("{s:s, s:s}", "path", input, "reason", reason);
  if (o == NULL)
    {
      /* Not UTF-8: the name goes in escaped.  */
      _cleanup_free_ char *e = ash_converter_escape (input);
      _cleanup_free_ char *er = ash_converter_escape (reason);
      o = json_pack ("{s:s, s:s}", "path", e, "reason", er);
    }
  if (o == NULL)
    ash_oom ();
  json_array_append_new (list, o);
}

void
ash_converter_refuse (struct ash_converter_result *r, const char *input,
                      const char *reason)
{
  add_input (r->refused_inputs, input, reason);
}

void
ash_converter_fail (struct ash_converter_result *r, const char *input,
                    const char *reason)
{
  add_input (r->failed_inputs, input, reason);
}

bool
ash_converter_result_incomplete (const struct ash_converter_result *r)
{
  return r->status == ASH_CONVERTER_MISSING
         || json_array_size (r->refused_inputs) > 0
         || json_array_size (r->failed_inputs) > 0;
}

json_t *
ash_converter_result_to_json (const struct ash_converter_result *r)
{
  json_t *o
    = json_pack ("{s:s, s:O, s:O, s:O, s:O, s:f}", "status",
                 ash_converter_status_name (r->status), "converted_files",
                 r->converted, "refused_inputs", r->refused_inputs,
                 "failed_inputs", r->failed_inputs, "skipped_entries",
                 r->skipped_entries, "duration", r->duration);
  if (o == NULL)
    ash_oom ();
  if (r->reason && r->status == ASH_CONVERTER_MISSING)
    json_object_set_new (o, "missing_reason", json_string (r->reason));
  else if (r->reason && r->status == ASH_CONVERTER_SKIPPED)
    json_object_set_new (o, "skipped_reason", json_string (r->reason));
  json_object_set_new (o, "sandbox",
                       r->sandbox ? json_incref (r->sandbox) : json_null ());
  return o;
}

char *
ash_converter_escape (const char *name)
{
  /* Bytes of 0x80 and above are kept when NAME is valid UTF-8, else
     escaped too: the result goes into JSON strings, which must be.  */
  json_t *utf8 = json_string (name);
  bool keep_high = utf8 != NULL;
  json_decref (utf8);
  struct ash_buf b = ASH_BUF_INIT;
  for (const unsigned char *p = (const unsigned char *) name; *p; p++)
    if (*p < 0x20 || *p == 0x7f || *p == '\\' || (*p >= 0x80 && !keep_high))
      ash_buf_addf (&b, "\\x%02x", *p);
    else
      ash_buf_addch (&b, (char) *p);
  return ash_buf_detach (&b);
}

/* The code cell of a script nbconvert wrote that holds line LINE (1-based):
   nbconvert opens each code cell with a "# In[...]:" comment.  0 when the
   file cannot be read or has no marker before the line.  */
static json_int_t
notebook_cell (int workfd, const char *rel, json_int_t line)
{
  struct ash_buf b = ASH_BUF_INIT;
  json_int_t cell = 0, n = 1;

  if (ash_tree_read_file (workfd, rel, (size_t) 64 << 20, &b, NULL) < 0)
    return 0;
  const char *p = b.buf;
  while (p && *p && n <= line)
    {
      if (strneq (p, "# In[", 5))
        cell++;
      p = strchr (p, '\n');
      if (p)
        p++;
      n++;
    }
  ash_buf_release (&b);
  return cell;
}

static void
map_location (json_t *loc, const json_t *map, int workfd)
{
  json_t *phys = json_object_get (loc, "physicalLocation");
  json_t *al = json_object_get (phys, "artifactLocation");
  const char *uri = json_string_value (json_object_get (al, "uri"));
  if (uri == NULL)
    return;
  while (strneq (uri, "./", 2))
    uri += 2;
  const json_t *m = json_object_get (map, uri);
  const char *orig = json_string_value (json_object_get (m, "original"));
  if (orig == NULL)
    return;
  const char *member = json_string_value (json_object_get (m, "member"));
  const char *kind = json_string_value (json_object_get (m, "kind"));
  json_t *props = json_object_get (loc, "properties");
  if (!json_is_object (props))
    {
      props = json_object ();
      json_object_set_new (loc, "properties", props);
    }
  _cleanup_free_ char *conv = xasprintf ("%s/%s", ASH_CONVERTED_DIR, uri);
  json_object_set_new (props, "converted_path", json_string (conv));
  if (member)
    json_object_set_new (props, "archive_member", json_string (member));
  if (kind && streq (kind, "notebook"))
    {
      json_t *region = json_object_get (phys, "region");
      json_int_t line
        = json_integer_value (json_object_get (region, "startLine"));
      json_int_t cell = line > 0 ? notebook_cell (workfd, uri, line) : 0;
      if (cell > 0)
        json_object_set_new (props, "notebook_code_cell", json_integer (cell));
    }
  json_object_set_new (al, "uri", json_string (orig));
}

void
ash_converters_map_sarif (json_t *doc, const json_t *map, int workfd)
{
  size_t i, j, k;
  json_t *run, *res, *loc;

  if (map == NULL)
    return;
  json_array_foreach (json_object_get (doc, "runs"), i, run)
    json_array_foreach (json_object_get (run, "results"), j, res)
      json_array_foreach (json_object_get (res, "locations"), k, loc)
        map_location (loc, map, workfd);
}
