import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { README_PATH, replaceBlock } from './readme-block.ts';
import { runSections, validationReadme } from './sections.ts';

// `npm run validate`: every validation section, written to docs/validation.md, and their headline figures to
// README.md's `npm run validate` block (from the same run, so the two cannot disagree).
const target = fileURLToPath(new URL('../../../docs/validation.md', import.meta.url));
mkdirSync(fileURLToPath(new URL('../../../docs/', import.meta.url)), { recursive: true });
const lines: string[] = [];
const results = runSections();
for (const { name, result: { markdown, summary } } of results) {
  lines.push(...markdown, '');
  console.log(`${name}:`);
  for (const s of summary) console.log(`  ${s}`);
}
writeFileSync(target, lines.join('\n'));
console.log(`wrote ${target}`);
writeFileSync(README_PATH, replaceBlock(readFileSync(README_PATH, 'utf8'), 'npm run validate', validationReadme(results)));
console.log(`wrote ${README_PATH} (the npm run validate block)`);
