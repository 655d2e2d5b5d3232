import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderValidationReport } from './render.ts';
import { scoreAll, summarise } from './score.ts';

// `npm run validate`: score every tier A/B row and write docs/validation.md.
const rows = scoreAll();
const target = fileURLToPath(new URL('../../../docs/validation.md', import.meta.url));
mkdirSync(fileURLToPath(new URL('../../../docs/', import.meta.url)), { recursive: true });
writeFileSync(target, renderValidationReport(rows) + '\n');
const { overall, bySource } = summarise(rows);
for (const s of bySource) console.log(`${s.source.padEnd(22)} ${String(s.rows).padStart(3)} rows  MAPE ${(s.mape * 100).toFixed(1)}%  worst ${(s.worst * 100).toFixed(1)}%`);
console.log(`${'all'.padEnd(22)} ${String(overall.rows).padStart(3)} rows  MAPE ${(overall.mape * 100).toFixed(1)}%  worst ${(overall.worst * 100).toFixed(1)}%`);
console.log(`wrote ${target}`);
