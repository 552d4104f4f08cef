/* SPDX-License-Identifier: Apache-2.0 */
/* test-sarif.c -- checking what a scanner wrote, severities, merging.  */

#include <config.h>

#include "base/error.h"
#include "scan/sarif.h"
#include "tap.h"

static void
parse_case (const char *text, bool ok, const char *want_msg)
{
  struct ash_error err = ASH_ERROR_INIT;
  json_t *doc = NULL;
  int r = ash_sarif_parse (text, strlen (text), &doc, &err);
  if (ok)
    tap_ok (r == 0 && doc != NULL, "accepted: %s", text);
  else
    {
      tap_ok (r < 0 && err.message && strstr (err.message, want_msg),
              "refused (%s): %s", err.message ? err.message : "no message",
              text);
    }
  json_decref (doc);
  ash_error_release (&err);
}

int
main (void)
{
  parse_case ("{\"version\":\"2.1.0\",\"runs\":[]}", true, NULL);
  parse_case ("{\"version\":\"2.1.0\",\"runs\":[{\"tool\":{\"driver\":"
              "{\"name\":\"x\"}},\"results\":[{\"message\":{\"text\":\"m\"}}]}]}",
              true, NULL);
  parse_case ("", false, "not JSON");
  parse_case ("this is not sarif", false, "not JSON");
  parse_case ("[1,2]", false, "not a JSON object");
  parse_case ("{\"version\":\"2.0.0\",\"runs\":[]}", false, "version");
  parse_case ("{\"version\":\"2.1.0\"}", false, "runs");
  parse_case ("{\"version\":\"2.1.0\",\"runs\":[{\"tool\":{}}]}", false,
              "tool.driver.name");
  parse_case ("{\"version\":\"2.1.0\",\"runs\":[{\"tool\":{\"driver\":"
              "{\"name\":\"x\"}},\"results\":{}}]}",
              false, "not an array");
  parse_case ("{\"version\":\"2.1.0\",\"runs\":[{\"tool\":{\"driver\":"
              "{\"name\":\"x\"}},\"results\":[{}]}]}",
              false, "no message");

  static const struct
  {
    const char *json;
    enum ash_severity want;
  } sev[] = {
    { "{\"level\":\"error\"}", ASH_SEVERITY_HIGH },
    { "{\"level\":\"warning\"}", ASH_SEVERITY_MEDIUM },
    { "{}", ASH_SEVERITY_MEDIUM },
    { "{\"level\":\"note\"}", ASH_SEVERITY_LOW },
    { "{\"level\":\"none\"}", ASH_SEVERITY_INFO },
    { "{\"level\":\"note\",\"properties\":{\"severity\":\"CRITICAL\"}}",
      ASH_SEVERITY_CRITICAL },
    { "{\"level\":\"error\",\"properties\":{\"issue_severity\":\"LOW\"}}",
      ASH_SEVERITY_LOW },
  };
  for (size_t i = 0; i < ARRAY_SIZE (sev); i++)
    {
      json_t *r = json_loads (sev[i].json, 0, NULL);
      tap_is_int (ash_sarif_result_severity (r), sev[i].want, "severity of %s",
                  sev[i].json);
      json_decref (r);
    }

  enum ash_severity t;
  tap_ok (ash_severity_parse ("MEDIUM", &t) == 0 && t == ASH_SEVERITY_MEDIUM,
          "MEDIUM parses");
  tap_ok (ash_severity_parse ("ALL", &t) == 0 && t == ASH_SEVERITY_INFO,
          "ALL is the lowest threshold");
  tap_ok (ash_severity_parse ("bogus", &t) < 0, "bogus is refused");

  json_t *sup = json_loads ("{\"suppressions\":[{\"kind\":\"inSource\"}]}", 0,
                            NULL);
  tap_ok (ash_sarif_result_is_suppressed (sup), "suppression in effect");
  json_decref (sup);
  sup = json_loads ("{\"suppressions\":[{\"kind\":\"external\","
                    "\"status\":\"rejected\"}]}",
                    0, NULL);
  tap_ok (!ash_sarif_result_is_suppressed (sup),
          "rejected suppression is not in effect");
  json_decref (sup);

  json_t *merged = ash_sarif_doc_new ();
  json_t *a = ash_sarif_doc_new ();
  json_t *run = ash_sarif_run_new ("tool-a", "1.0", NULL);
  json_array_append_new (json_object_get (run, "results"),
                         json_pack ("{s:{s:s}}", "message", "text", "m"));
  json_array_append_new (json_object_get (a, "runs"), run);
  ash_sarif_tag (a, "scanner-a");
  ash_sarif_merge (merged, a);
  ash_sarif_merge (merged, a);
  tap_is_int (json_array_size (json_object_get (merged, "runs")), 2,
              "merge appends runs");
  json_t *res = json_array_get (json_object_get (run, "results"), 0);
  tap_is_str (json_string_value (json_object_get (
                json_object_get (res, "properties"), "scanner_name")),
              "scanner-a", "results are tagged with their scanner");
  json_decref (a);
  json_decref (merged);
  return tap_done ();
}
