import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { VALIDATION_SECTIONS } from './sections.ts';

// `npm run validate`: every validation section, written to docs/validation.md.
const target = fileURLToPath(new URL('../../../docs/validation.md', import.meta.url));
mkdirSync(fileURLToPath(new URL('../../../docs/', import.meta.url)), { recursive: true });
const lines: string[] = [];
for (const section of VALIDATION_SECTIONS) {
  const { markdown, summary } = section.run();
  lines.push(...markdown, '');
  console.log(`${section.name}:`);
  for (const s of summary) console.log(`  ${s}`);
}
writeFileSync(target, lines.join('\n'));
console.log(`wrote ${target}`);
