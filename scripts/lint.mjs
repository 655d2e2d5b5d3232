#!/usr/bin/env node
// Repository checks as code (house style): imports flow one way, pure packages stay pure, and
// scale literals live only in the units package. Exits non-zero with one line per violation.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

// Layers, lowest first: a package may import only from packages on strictly lower layers
// (style.md: units → hardware, model → collectives → planner → presets/protocol → apps → infra).
// http (a request body read on the Fetch API alone, for the apps) imports nothing and sits beside units.
const LAYER = {
  units: 0, http: 0, hardware: 1, model: 1, collectives: 2, planner: 3, presets: 4, search: 4, protocol: 5, ask: 6,
};
const PURITY = [
  [/\bprocess\./, 'uses process (pure packages run in Workers and browsers)'],
  [/\bDeno\./, 'uses Deno'],
  [/\bfetch\(/, 'uses fetch'],
  [/\bconsole\./, 'uses console'],
  [/\bDate\.now\(|new Date\(/, 'reads the clock'],
  [/\bMath\.random\(/, 'uses randomness'],
  [/from 'node:/, 'imports a Node built-in'],
];
const SCALE_LITERAL = /(?<![\w.])(1e(9|12|15)|2 ?\*\* ?(20|30|40))(?![\w.])/;

function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
  });
}

const problems = [];
for (const [pkg, layer] of Object.entries(LAYER)) {
  for (const file of files(join(root, 'packages', pkg, 'src'))) {
    const rel = relative(root, file);
    readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
      const where = `${rel}:${i + 1}`;
      const trimmed = line.trim();
      if (trimmed.startsWith('*') || trimmed.startsWith('//')) return;
      for (const m of line.matchAll(/from '@trainplan\/([\w-]+)'/g)) {
        const dep = m[1];
        if (!(dep in LAYER)) problems.push(`${where}: imports @trainplan/${dep}, which a pure package may not use`);
        else if (LAYER[dep] >= layer) problems.push(`${where}: ${pkg} (layer ${layer}) imports ${dep} (layer ${LAYER[dep]}): imports must flow down`);
      }
      for (const [pattern, message] of PURITY) if (pattern.test(line)) problems.push(`${where}: ${message}`);
      if (pkg !== 'units' && SCALE_LITERAL.test(line)) problems.push(`${where}: scale literal; use a constructor from @trainplan/units`);
    });
  }
}
for (const p of problems) console.error(p);
console.log(problems.length === 0 ? 'lint: ok' : `lint: ${problems.length} problem(s)`);
process.exit(problems.length === 0 ? 0 : 1);
