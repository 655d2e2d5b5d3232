import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { kernelCases } from './kernel-cases.ts';

/** `npm run kernel-cases`: writes test/validation/kernels/cases.json, what kernels/measure.py times on a GPU. */
const path = fileURLToPath(new URL('../kernels/cases.json', import.meta.url));
const cases = kernelCases();
writeFileSync(path, `${JSON.stringify(cases, null, 1)}\n`);
console.log(`wrote ${path}: ${cases.gemm.length} GEMMs, ${cases.attention.length} attention shapes, ${cases.layers.length} layers, ${cases.decode.length} decode steps, ${cases.prefill.length} prefills, ${cases.optimizer.length} optimizer steps`);
