// SPDX-License-Identifier: Apache-2.0
// cdk-nag-worker.js -- ash's cdk-nag worker.  ash starts it with node,
// under the scanner's sandbox, never inside ash itself:
//
//   node cdk-nag-worker.js --modules MODDIR --out DIR --packs P1,P2,...
//     -- TEMPLATE...
//
// Each CloudFormation TEMPLATE (relative to the working directory, the
// source directory) is loaded into a stack of its own with aws-cdk-lib's
// CfnInclude, the rule packs P (AwsSolutionsChecks, HIPAASecurityChecks,
// NIST80053R4Checks, NIST80053R5Checks, PCIDSS321Checks) are applied as
// aspects, and the app is synthesized into DIR/N (N: the template's
// index), where cdk-nag writes its NagReport CSV files.  DIR/manifest.json
// then lists, per template, its path, the reports written and the error
// that stopped it, if any.  aws-cdk-lib and cdk-nag are loaded from the
// node_modules directory MODDIR.
'use strict';

const fs = require('fs');
const path = require('path');

function fail(msg) {
  process.stderr.write('cdk-nag-worker: ' + msg + '\n');
  process.exit(2);
}

const args = process.argv.slice(2);
let out = null;
let modules = null;
let packs = [];
let templates = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--out') out = args[++i];
  else if (args[i] === '--modules') modules = args[++i];
  else if (args[i] === '--packs') packs = args[++i].split(',').filter(Boolean);
  else if (args[i] === '--') { templates = args.slice(i + 1); break; }
  else fail('unknown argument ' + JSON.stringify(args[i]));
}
if (!out || !modules) fail('--out and --modules are required');
const load = (name) => require(require.resolve(name, { paths: [modules] }));
if (packs.length === 0) fail('no rule pack selected');

let cdk, nag, cfnInclude;
try {
  cdk = load('aws-cdk-lib');
  cfnInclude = load('aws-cdk-lib/cloudformation-include');
  nag = load('cdk-nag');
} catch (e) {
  fail('cannot load aws-cdk-lib and cdk-nag from ' + modules + ': ' +
       e.message.split('\n')[0]);
}
for (const p of packs)
  if (typeof nag[p] !== 'function') fail('cdk-nag has no rule pack ' + p);

const manifest = { packs: packs, templates: [] };
templates.forEach((template, index) => {
  const dir = path.join(out, String(index));
  const entry = { template: template, dir: String(index), reports: [], error: null };
  try {
    fs.mkdirSync(dir, { recursive: true });
    const app = new cdk.App({ outdir: dir, autoSynth: false });
    const stack = new cdk.Stack(app, 'Template' + index);
    new cfnInclude.CfnInclude(stack, 'Template', { templateFile: template });
    for (const p of packs)
      cdk.Aspects.of(app).add(new nag[p]({ reports: true, verbose: true,
                                           reportFormats: [nag.NagReportFormat.CSV] }));
    app.synth();
    entry.reports = fs.readdirSync(dir).filter((f) => /-NagReport\.csv$/.test(f)).sort();
  } catch (e) {
    entry.error = String(e && e.message ? e.message : e).split('\n')[0];
  }
  manifest.templates.push(entry);
});
fs.writeFileSync(path.join(out, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
