import { describe, expect, it } from 'vitest';
import { GPUS, MODEL_IDS, NETWORKS, SYSTEMS } from '@trainplan/presets';
import { NVLINKS } from '@trainplan/hardware';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { WIDGET_BUILD_OPTIONS } from '../src/build.ts';
import { runDeadlineNodes, runEstimate } from '@trainplan/protocol';
import {
  capacityForWidgetRequests, IMPORTED_DESCRIPTION_HELPERS, stylesOnOneLine, UNREAD_PRESET_FIELDS, withoutBudgetOrNote, withoutNodesModes,
} from '../src/build.ts';
import { blankLiteralArguments } from '../src/strip-properties.ts';
import { UNREAD_GPU_FIELDS, UNREAD_NCCL_TABLE_FIELDS } from '../src/unread-spec-fields.ts';
import { buildWidgetBundle, createWidgetApp, MODULE_PATH, WIDGET_BUDGET_GZIP_BYTES, widgetBundle } from '../src/index.ts';

describe('the widget bundle', () => {
  it('fits the budget of issue 6: at most 80 KB gzip, the core included', async () => {
    const bundle = await buildWidgetBundle();
    expect(WIDGET_BUDGET_GZIP_BYTES).toBe(80_000);
    expect(bundle.gzipBytes).toBeLessThanOrEqual(WIDGET_BUDGET_GZIP_BYTES);
    // The core is in it: the planner's calibration and the presets travel with the element.
    expect(bundle.code).toContain('trainplan-estimator');
    expect(bundle.code).toContain('trainplan-serving');
    expect(bundle.code).toContain('gpt3-175b');
  });

  it('leaves the presets\' citations out: it computes with the specs and never reads the *_SOURCES records', async () => {
    const { code } = await buildWidgetBundle();
    for (const cited of ['arxiv.org', 'datasheet', 'whitepaper', 'Table 2.1']) expect(code).not.toContain(cited);
  });

  it('leaves the schemas\' OpenAPI descriptions out, and still validates with them gone (the same field messages)', async () => {
    const { code } = await buildWidgetBundle();
    // A description the API documents (inference-request.ts), absent from the bundle; the validation messages stay.
    expect(code).not.toContain('Latency bound per generated token');
    expect(code).not.toMatch(/description:(["'`])[^"'`]{3,}/);
    expect(code).toContain('must be');
  });

  it('leaves out what only the OpenAPI document reads: no toJsonSchema to call, no jsonSchema keywords, no helper descriptions', async () => {
    const { code } = await buildWidgetBundle();
    expect(code).not.toContain('toJsonSchema');
    expect(code).not.toContain('jsonSchema');
    // Descriptions passed to a helper, not as an option (request-parts.ts flag, scenario-schema.ts presetId).
    expect(code).not.toContain('Overlap the gradient reduction with the backward pass.');
    expect(code).not.toContain('Model preset id, e.g. gpt3-175b.');
  });

  it('leaves NCCL\'s constant tables\' sources out and keeps their values', async () => {
    const { code } = await buildWidgetBundle();
    // The values' provenance lives in nccl-table-sources.ts, which no runtime file imports: no cost reads it.
    for (const source of ['src/tuning/ring.cc', 'src/enqueue.cc topoGetAlgoInfo', 'ncclTunerConstantsDefaults)']) expect(code).not.toContain(source);
    // The values stay: the ring's net-overhead factor and its pre-Ampere one (nccl-tables.ts).
    expect(code).toContain('factor:1.4,factorBeforeAmpere:1.9');
  });

  it('leaves the search\'s explanations of the runner-up plans out (explain.ts), which the widget never shows, and still searches', async () => {
    const { code } = await buildWidgetBundle();
    // explain.ts's words for what an alternative loses ("TP 16 crosses nodes: +31% tensor-parallel communication").
    for (const text of [' crosses nodes', 'exposed data-parallel communication']) expect(code).not.toContain(text);
    // The stand-in answers none; the search itself (runSearch's best plan) is in the bundle.
    expect(code).toContain('the candidate budget ran out after');
  });

  it('leaves out what the widget never shows or sets: the search\'s tally texts, the gated-shape warning, the CollNet model, the smaller faster cluster, the larger-batch hint', async () => {
    const { code } = await buildWidgetBundle();
    // prune-reason-text.ts (the tally's words for how the search settled a candidate); the rules' words stay, whyNothingFits names them.
    for (const text of ['the same plan as another candidate', 'already slower than the k-th best found']) expect(code).not.toContain(text);
    expect(code).toContain('does not divide the GPUs');
    // shape-defaults-warning.ts (no field of the widget's form sets what it names) and nccl-collnet-model.ts (opt-in, never on here).
    for (const text of ['took GPT defaults', 'NCCL_COLLNET_NODE_THRESHOLD', 'arity serialization']) expect(code).not.toContain(text);
    // fewer-nodes-json.ts (no-fewer-nodes.ts): the smaller cluster that steps faster, a search per size, never shown here.
    expect(code).not.toContain('trains faster on fewer GPUs');
    // nodes-larger-batch.ts (no-larger-batch.ts): the same deadline at twice the batch, a second capacity search, left to the
    // API (whose answers the widget still shows when it runs against one).
    expect(code).not.toContain('The batch holds this plan back');
    // bandwidth-bound.ts (no-bandwidth-assertion.ts): the bound's check and its message, run by the CLI and API on every
    // collective; direct-all-to-all.ts (no-all-to-all.ts): the all-to-all, which no training plan asks for. Send/recv stays
    // (direct-model.ts): emulated pipeline and context-parallel sends ask for it (retest QA: a stand-in for both broke them).
    for (const text of ['passed its own bandwidth bound', 'the node cut']) expect(code).not.toContain(text);
    const { metafile } = await build({ ...WIDGET_BUILD_OPTIONS, metafile: true });
    const inputs = Object.keys(Object.values(metafile.outputs)[0]!.inputs);
    for (const left of ['collectives/src/bandwidth-bound.ts', 'collectives/src/direct-all-to-all.ts']) expect(inputs.some((f) => f.endsWith(left))).toBe(false);
    for (const kept of ['collectives/src/direct-model.ts', 'compute/no-all-to-all.ts']) expect(inputs.some((f) => f.endsWith(kept))).toBe(true);
    // systemsAndNetworksWithoutNames: no system's or network's name (listed by id), every GPU's (the precision note says one).
    for (const n of Object.values(NETWORKS)) expect(code).not.toContain(n.name);
    for (const s of Object.values(SYSTEMS)) expect(code).not.toContain(s.name);
    // Nor an NVLink generation's ("NVLink 4.0 (Hopper)"): only its id and bandwidth are read (fabric-from-specs.ts).
    for (const l of Object.values(NVLINKS)) expect(code).not.toContain(l.name);
    for (const g of Object.values(GPUS)) expect(code).toContain(g.name);
  });

  it('takes the stand-in for the schema\'s "did you mean" of an enumerated value (no-meant-choice.ts), whose controls send none', async () => {
    const { metafile } = await build({ ...WIDGET_BUILD_OPTIONS, metafile: true });
    const inputs = Object.keys(metafile.inputs);
    expect(inputs.some((path) => path.endsWith('apps/widget/src/compute/no-meant-choice.ts'))).toBe(true);
    expect(inputs.some((path) => path.endsWith('packages/protocol/src/meant-choice.ts'))).toBe(false);
  });

  it('takes the stand-in for the resolved fields that feed an estimate back (no-resolved-extensions.ts), which it never shows', async () => {
    const { metafile } = await build({ ...WIDGET_BUILD_OPTIONS, metafile: true });
    const inputs = Object.keys(metafile.inputs);
    expect(inputs.some((path) => path.endsWith('apps/widget/src/compute/no-resolved-extensions.ts'))).toBe(true);
    expect(inputs.some((path) => path.endsWith('packages/protocol/src/resolved-extensions.ts'))).toBe(false);
  });

  it('leaves out what only requests the widget never makes reach: the days on given nodes, the requests\' mode rules, the constraints\' contradictions', async () => {
    const { code } = await buildWidgetBundle();
    // nodes.ts's days-on-nodes answer and budget refusal (withoutNodesModes) and its nodesRequestSchema refine; search-schema.ts's
    // refine (withoutSearchRules); empty-space.ts (no-empty-space.ts).
    for (const text of [
      'the nearest sizes that run are', 'fits this model and batch in memory', 'a budget is not answered here', 'give frontier (the time–cost curve) or a goal',
      'objective "cost" needs training.tokens', 'the constraints contradict each other',
    ]) {
      expect(code).not.toContain(text);
    }
    // The refusal that stands in for the days on given nodes.
    expect(code).toContain('not answered here: ask the API');
  });

  it('blanks the descriptions passed to a helper another source declares (IMPORTED_DESCRIPTION_HELPERS), which still qualifies where declared', async () => {
    const { code } = await buildWidgetBundle();
    // inference-request.ts's price description, passed to request-parts.ts's pricePerGpuHourField, and that helper's default.
    expect(code).not.toContain('every point then gives what a million');
    expect(code).not.toContain('Price of one GPU-hour, for costs.');
    // Read on its own, request-parts.ts makes pricePerGpuHourField a description-only helper: its default is blanked.
    const parts = await readFile(new URL('../../../packages/protocol/src/search/request-parts.ts', import.meta.url), 'utf8');
    expect(Object.keys(IMPORTED_DESCRIPTION_HELPERS)).toEqual(['pricePerGpuHourField']);
    expect(blankLiteralArguments(parts, 'description')).toContain("pricePerGpuHourField = (description = '') =>");
  });

  it('carries the stylesheet on one line (stylesOnOneLine), every rule kept, and leaves other sources alone', async () => {
    const { code } = await buildWidgetBundle();
    // Two rules on successive lines of styles.ts, the newline between them gone; none left before a rule.
    expect(code).toContain(':host([hidden]){display:none}*{box-sizing:border-box}');
    expect(code).not.toMatch(/\n(?::host|\.tp|\.seg-|@media)/);
    expect(stylesOnOneLine('const A = `a{b:c}\n.d{e:f}\n`;\n/** `x`\n y */')).toBe('const A = `a{b:c}.d{e:f}`;\n/** `x`\n y */');
  });

  it('refuses to build when nodes.ts no longer has the days-on-nodes branch it leaves out', () => {
    expect(() => withoutNodesModes('export function runNodesWith() { return 1; }')).toThrow('no "if (req.nodes !== undefined) {');
    // The branch and what follows it: the branch, braces nested, becomes the refusal; the rest stays.
    const source = "if (req.nodes !== undefined) {\n  if (x) { return '}'; }\n  return near;\n}\nif (req.frontier === true) return curve;";
    expect(withoutNodesModes(source)).toBe("if (req.nodes !== undefined) return invalid([{ path: 'nodes', message: 'not answered here: ask the API' }]);\nif (req.frontier === true) return curve;");
  });

  it('leaves out what its "how many nodes" never reaches or shows (withoutBudgetOrNote): a deadline missed with a budget, the answer\'s note', async () => {
    const { code } = await buildWidgetBundle();
    // capacity.ts's words for a deadline and a budget not met together (bothMissedText, spendText's overText), and the
    // note's (checkNote, checkedText).
    for (const text of [
      'meets both the deadline and the budget', 'the deadline can be met but not within the budget', 'over the budget of',
      'cannot meet the deadline even at 100% MFU', 'were not all searched', 'every one searched',
    ]) {
      expect(code).not.toContain(text);
    }
    // A deadline no size meets, which the widget shows (searchedNodesSection), keeps its words; a budget throws.
    expect(code).toContain('meets the deadline: the fastest found takes');
    expect(code).toContain('fewestOn: no budget is searched in the widget');
  });

  it('answers a deadline with the bundle\'s capacity.ts as @trainplan/protocol does, less the note, and refuses a budget alike', async () => {
    // The protocol's runDeadlineNodes bundled with capacityForWidgetRequests alone, against the sources as they are: the
    // only difference withoutBudgetOrNote may make to an answer is the `note`, which the widget never shows.
    const out = await build({
      stdin: { contents: "export { runDeadlineNodes } from '@trainplan/protocol';", resolveDir: fileURLToPath(new URL('.', import.meta.url)), loader: 'ts' },
      bundle: true, format: 'esm', platform: 'neutral', write: false, logLevel: 'silent', plugins: [capacityForWidgetRequests],
    });
    const bundled = (await import(`data:text/javascript;base64,${Buffer.from(out.outputFiles[0]!.text).toString('base64')}`)) as { runDeadlineNodes: typeof runDeadlineNodes };
    const gpt3 = { model: 'gpt3-175b', cluster: { gpu: 'a100-80gb' }, training: { globalBatchSize: 1536 }, tokens: 300e9 };
    // 30 days: met, with a note on the sizes below (the sources say one); 12 hours: met by no size (deadline-unreachable,
    // no note either way); a budget beside a deadline: refused before any search (protocol nodes.ts), never reaching fewestOn.
    const answers = [{ days: 30 }, { days: 0.5 }, { days: 30, gpuHours: 600e3 }].map((goal) => ({
      sources: runDeadlineNodes({ ...gpt3, ...goal }) as { note?: string }, bundle: bundled.runDeadlineNodes({ ...gpt3, ...goal }),
    }));
    expect(answers[0]!.sources.note).toMatch(/cannot meet the deadline even at 100% MFU/);
    expect(answers.map((a) => a.sources)).toMatchObject([{ ok: true }, { reason: 'deadline-unreachable' }, { reason: 'invalid' }]);
    // The tally of the sizes below the answer, which only the note and the answer's `checked` read, goes with the note
    // (unreached-by-calls.ts NO_CHECK_TALLY): the scan's reach (fromNodes, complete) stays.
    for (const { sources: { note: _note, ...rest }, bundle } of answers) {
      const scanned = (rest as { checked?: { fromNodes: number; complete: boolean } }).checked;
      const checked = scanned ? { checked: { fromNodes: scanned.fromNodes, complete: scanned.complete } } : {};
      expect(bundle).toEqual({ ...rest, ...checked });
    }
  });

  it('answers emulated pipeline and context-parallel plans with the bundle\'s stand-ins, at the closed form\'s step (their sends are send/recv)', async () => {
    // runEstimate bundled with the widget's plugins: an emulated plan's pipeline and ring-attention sends are costed by
    // direct-model.ts's send/recv, which a stand-in once dropped with the all-to-all (retest QA: "no algorithm can run send-recv").
    const { entryPoints: _entry, ...options } = WIDGET_BUILD_OPTIONS;
    const out = await build({
      ...options, minify: false, platform: 'neutral',
      stdin: { contents: "export { runEstimate } from '@trainplan/protocol';", resolveDir: fileURLToPath(new URL('.', import.meta.url)), loader: 'ts' },
    });
    const bundled = (await import(`data:text/javascript;base64,${Buffer.from(out.outputFiles[0]!.text).toString('base64')}`)) as { runEstimate: typeof runEstimate };
    // Also where the NICs are fewer than the GPUs (hdr-ib-4x): the closed form shares a NIC between two GPUs' sends, which a
    // stand-in costing each send alone on its NIC left out (browser QA: 14.5 s against the closed form's 15.0 s).
    for (const [cluster, parallelism, training] of [
      [{ gpu: 'a100-80gb', nodes: 2 }, { tensor: 2, pipeline: 2, recompute: 'full' }, { globalBatchSize: 256 }],
      [{ gpu: 'h100-sxm', nodes: 1 }, { tensor: 2, context: 2, recompute: 'full' }, { globalBatchSize: 64 }],
      [{ gpu: 'a100-80gb', nodes: 4, network: 'hdr-ib-4x' }, { tensor: 8, pipeline: 4, recompute: 'full' }, { globalBatchSize: 256 }],
      [{ gpu: 'a100-80gb', nodes: 2, network: 'hdr-ib-4x' }, { tensor: 8, context: 2, recompute: 'full' }, { globalBatchSize: 64 }],
    ] as const) {
      const model = 'pipeline' in parallelism ? 'gpt3-13b' : 'llama3-8b';
      const emulated = bundled.runEstimate({ model, cluster: { ...cluster, communicationModel: 'emulated' }, training, parallelism }) as { ok: boolean; stepTimeSeconds?: number; warnings?: string[] };
      const closed = runEstimate({ model, cluster, training, parallelism }) as { ok: boolean; stepTimeSeconds?: number };
      expect(closed.ok).toBe(true);
      expect(emulated.ok).toBe(true);
      expect(emulated.stepTimeSeconds).toBe(closed.stepTimeSeconds);
      // One line for the one reason, naming every collective it stopped (browser QA: four to six near-identical lines).
      const fallbackLines = (emulated.warnings ?? []).filter((w) => w.startsWith('not emulated'));
      expect(fallbackLines).toHaveLength(1);
      expect(fallbackLines[0]).toMatch(/instead: .+, .+: the widget carries NCCL's closed form only/);
    }
  }, 60_000);

  it('refuses to build when capacity.ts no longer has the budget branch or the note it leaves out', () => {
    const budget = 'return deadlineOrBudget(s, goal, answer, deadlineUnreachable, scan, reachFor);';
    const note = 'note: checkNote(point, checked), ';
    expect(() => withoutBudgetOrNote(`return { ok: true, ${note}searches };`)).toThrow('no "return deadlineOrBudget(');
    expect(() => withoutBudgetOrNote(budget)).toThrow('no "note: checkNote(');
    // Both found: the budget's step becomes the throw, the note's key goes, the rest stays as written.
    expect(withoutBudgetOrNote(`if (!withBudget) return x;\n${budget}\nreturn { ok: true, ${note}searches };`))
      .toBe("if (!withBudget) return x;\nthrow new Error('fewestOn: no budget is searched in the widget');\nreturn { ok: true, searches };");
  });

  it('answers its searches in a worker that loads this same module: the module answers calls there instead of defining the elements', async () => {
    const { code } = await buildWidgetBundle();
    // off-thread.ts: the worker's check and its script (the bundle's own URL); entry.ts defines the elements only outside one.
    expect(code).toContain('typeof WorkerGlobalScope');
    expect(code).toContain('import.meta.url');
  });

  it('leaves the budget search out: the widget asks for deadlines and the time–cost curve, never a budget (runDeadlineNodes)', async () => {
    const { code } = await buildWidgetBundle();
    // fastestWithinBudget's note, which runNodes' budget mode reaches and runDeadlineNodes does not.
    expect(code).not.toContain('deadlines below the fastest found within the budget');
    // The deadline's own search and the curve are in it.
    expect(code).toContain('fewest-nodes');
    expect(code).toContain('cost-time-frontier');
  });

  it("leaves out what a model preset says that nothing in it reads (UNREAD_PRESET_FIELDS), and keeps every preset and what is read", async () => {
    const { code } = await buildWidgetBundle();
    // Neither a key nor a read of one (`.name`, `{name`, `,name`: esbuild keeps property names): a read would find the
    // field stripped. Prose may say the word ("the target's tokenizer").
    expect([...UNREAD_PRESET_FIELDS]).toEqual([
      'publishedParameters', 'publishedGlobalBatchSize', 'defaultTrainingTokens', 'tokenizer',
      'rotaryBase', 'ropeScalingFactor', 'rotaryPercent', 'mlpActivation', 'layerNorm1p',
    ]);
    for (const field of UNREAD_PRESET_FIELDS) expect(code).not.toMatch(new RegExp(String.raw`[.{,]${field}\b`));
    // Nor a key named in a string, which a read by a computed key (`preset[key]`) would take.
    for (const field of UNREAD_PRESET_FIELDS) expect(code).not.toMatch(new RegExp(String.raw`["'\`]${field}["'\`]`));
    // The tokenizers' names went with them; every preset stays, with the fields the protocol reads (resolve.ts, inference.ts).
    expect(code).not.toContain("GPT-2's BPE");
    for (const id of MODEL_IDS) expect(code).toContain(`"${id}"`);
    for (const read of ['trainedWithDropout', 'contextWindowTokens']) expect(code).toContain(read);
  });

  it("leaves out what the GPUs and NCCL's tables hold that nothing in it reads (specsWithoutUnreadFields), keeping what is read", async () => {
    const { code } = await buildWidgetBundle();
    expect([...UNREAD_GPU_FIELDS]).toEqual(['tdpWatts', 'l2Bytes']);
    expect([...UNREAD_NCCL_TABLE_FIELDS]).toEqual(['collnetDirect', 'collnetChain', 'version', 'snapshot']);
    // Neither a key nor a read of one, by name or by a key in a string: a read would find the field stripped.
    for (const field of [...UNREAD_GPU_FIELDS, ...UNREAD_NCCL_TABLE_FIELDS]) {
      expect(code).not.toMatch(new RegExp(String.raw`[.{,]${field}\b|["'\`]${field}["'\`]`));
    }
    // NCCL's own words for the tables' provenance, gone with it.
    expect(code).not.toContain('NVIDIA/nccl master');
    // The GPUs keep what the planner reads (its kernel model: SMs, peaks, HBM), and the tables the other algorithms' rows.
    for (const read of ['smCount:', 'hbmBandwidth:', 'nvlinkCount:', 'nvlsTree:']) expect(code).toContain(read);
    // NCCL's base latencies of the ring (LL, LL128, Simple), beside the CollNet rows that went.
    expect(code).toMatch(/ring:\w+\(6\.6,14,8\.4\)/);
    // The collectives' costs take NCCL's own choice only (nccl-own-choice.ts): no hierarchical all-reduce, no forced algorithm's check.
    for (const text of ['the hierarchical algorithm implements', 'does not implement', "unknown algorithm '"]) expect(code).not.toContain(text);
    expect(code).toContain("the widget costs NCCL's own choice only (auto)");
  });

  it('spells +∞ as Infinity (WIDGET_BUILD_OPTIONS define), which esbuild writes 1/0, not Number.POSITIVE_INFINITY', async () => {
    const { code } = await buildWidgetBundle();
    expect(WIDGET_BUILD_OPTIONS.define).toEqual({ 'Number.POSITIVE_INFINITY': 'Infinity' });
    expect(code).not.toContain('POSITIVE_INFINITY');
    expect(code).toContain('1/0');
  });

  it('is one self-contained ES module: no imports, no Node built-ins, no esbuild', async () => {
    const { code } = await buildWidgetBundle();
    expect(code).not.toMatch(/\bimport\s*[{*"'(]|from\s*"node:|require\(/);
    expect(code).not.toContain('esbuild');
  });

  it('is built once per process', async () => {
    expect(await widgetBundle()).toBe(await widgetBundle());
  });
});

describe('the widget app', () => {
  const app = createWidgetApp();
  it('serves the demo page at / with the module, the element and the embed snippet', async () => {
    const res = await app.request('/');
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain(`<script type="module" src="${MODULE_PATH}"></script>`);
    expect(html).toContain('<trainplan-estimator sync-hash');
    expect(html).toContain('&#60;script type=&#34;module&#34;'); // the snippet, escaped for reading
    expect(html).toContain('<trainplan-serving model=');
    expect(html).toContain('&#60;trainplan-serving'); // its snippet
  });

  it('serves the module as JavaScript to any origin', async () => {
    const res = await app.request(MODULE_PATH);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect((await res.text()).length).toBe((await widgetBundle()).code.length);
  });

  it('answers a revalidation with the module\'s ETag by 304 and no body (QA: every revalidation sent the 80 kB again)', async () => {
    const first = await app.request(MODULE_PATH);
    const tag = first.headers.get('etag');
    expect(tag).toMatch(/^(W\/)?"[^"]+"$/);
    const again = await app.request(MODULE_PATH, { headers: { 'if-none-match': tag! } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    // The 304 says what the 200 says (QA: it went out as text/plain, without CORS): a cache updating its copy keeps JavaScript.
    for (const name of ['content-type', 'cache-control', 'access-control-allow-origin', 'etag']) expect(again.headers.get(name)).toBe(first.headers.get(name));
    // A client holding the weak form (a compressed copy) and a list with it are matched too.
    expect((await app.request(MODULE_PATH, { headers: { 'if-none-match': `"x", W/${tag!}` } })).status).toBe(304);
    // Another tag is another module: the whole of it.
    expect((await app.request(MODULE_PATH, { headers: { 'if-none-match': '"stale"' } })).status).toBe(200);
  });
});
