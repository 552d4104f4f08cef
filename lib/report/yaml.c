/* SPDX-License-Identifier: Apache-2.0 */
/* yaml.c -- ash.yaml: the aggregated results as YAML, as upstream's yaml
   reporter writes its whole model.  Every key and string is a
   double-quoted scalar with its control characters escaped
   (config-emit.c), so that nothing a scanner wrote can start a new key, a
   document, an anchor or a tag.  */

#include <config.h>

#include "config/ashconfig.h"
#include "report/reports.h"
#include "scan/packed.h"

char *
ash_report_yaml (const json_t *agg)
{
  /* The YAML writer walks the tree: a packed run's results are made a
     tree again for it, in a copy of the document.  */
  _cleanup_json_ json_t *copy = ash_sarif_unpacked_copy (agg);
  return ash_config_to_yaml (copy);
}
