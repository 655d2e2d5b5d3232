// A bundle of the CLI, kept between runs so that a call need not load ~380 TypeScript files through tsx (about 2 s)
// to print --help. It is keyed on the size, mtime and ctime of every file it is built from, so an edit (even one that
// keeps the size, and ctime cannot be set back) is a new key and the sources run through tsx again: never stale code.
// Any failure here (no esbuild, an unwritable folder, a bundle that will not import) only means the tsx path, silently:
// the cache is a speed-up, never a new way for the CLI to fail.
import { createHash } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The repository root, three folders above this file (apps/cli/bin/). */
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const ENTRY = 'apps/cli/src/main.ts';
/** A writer that has held a key's lock this long has died; its lock and temporary file are litter. */
const STALE_LOCK_MS = 120_000;
/** Flags that put module hooks into the process: those hooks see the sources module by module, which the bundle would sidestep. */
const HOOK_FLAGS = /(?:^|\s)(?:--import|--loader|--experimental-loader|--require|-r)(?:[=\s]|$)/;

/** What the bundle is built from: the CLI (this folder included: it holds the build options), its manifest, and every workspace package's sources. */
function keyedRoots(root) {
  const packages = existsSync(join(root, 'packages'))
    ? readdirSync(join(root, 'packages'), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => `packages/${d.name}`).sort()
    : [];
  return ['apps/cli/bin', 'apps/cli/src', 'apps/cli/package.json', 'tsconfig.json', 'tsconfig.base.json',
    ...packages.flatMap((p) => [`${p}/src`, `${p}/package.json`])];
}

/** Every file under `rel` (a file or a folder), as `path\tsize\tmtime\tctime` lines, in a stable order. */
function fingerprints(root, rel, out) {
  let stat;
  try {
    stat = statSync(join(root, rel), { bigint: true });
  } catch {
    return; // absent (no tsconfig.base.json, a package without src): its absence is in the key by omission
  }
  if (!stat.isDirectory()) {
    out.push(`${rel}\t${stat.size}\t${stat.mtimeNs}\t${stat.ctimeNs}`);
    return;
  }
  for (const name of readdirSync(join(root, rel)).sort()) fingerprints(root, `${rel}/${name}`, out);
}

/**
 * The cache key of the CLI's sources under `root`: a hash of the path, size, mtime and ctime of each file the bundle is
 * built from (5–18 ms for ~380 files on a loaded 2-core machine), and the list of those paths, against which a build's
 * inputs are checked.
 */
export function sourceKey(root = ROOT) {
  const lines = [];
  for (const rel of keyedRoots(root)) fingerprints(root, rel, lines);
  const key = createHash('sha256').update(lines.join('\n')).digest('hex').slice(0, 32);
  return { key, files: new Set(lines.map((l) => l.slice(0, l.indexOf('\t')))) };
}

function tryUnlink(path) {
  try {
    unlinkSync(path);
  } catch {
    // already gone (another run pruned it): nothing to do
  }
}

/** Takes the key's lock, or answers false when a live run holds it (that run writes the bundle; this one need not). */
function takeLock(lockPath) {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      closeSync(openSync(lockPath, 'wx'));
      return true;
    } catch (error) {
      if (error?.code !== 'EEXIST') return false;
      try {
        if (Date.now() - statSync(lockPath).mtimeMs < STALE_LOCK_MS) return false;
      } catch {
        continue; // released while we looked: try again
      }
      tryUnlink(lockPath);
    }
  }
  return false;
}

/** Removes other keys' bundles (with ctime in the key, an old key can never match again) and dead writers' litter. */
function prune(dir, keep) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (name === keep) continue;
    if (name.endsWith('.mjs')) tryUnlink(path);
    else if (name.endsWith('.tmp') || name.endsWith('.lock')) {
      try {
        if (Date.now() - statSync(path).mtimeMs > STALE_LOCK_MS) tryUnlink(path);
      } catch {
        // gone already
      }
    }
  }
}

/**
 * Bundles the CLI with esbuild (platform node, ESM, the workspace packages inlined: they have no dependencies outside
 * the repository) and writes it as `<key>.mjs`: to a temporary file first, then renamed into place, so a concurrent
 * run sees either no bundle or a whole one. Written only when `loaded` (the same sources, loaded through tsx) resolves,
 * when every file esbuild read is one the key covers, and when the key still holds after the build (no edit meanwhile).
 */
async function writeBundle({ root, dir, key, files, loaded, debug }) {
  const final = join(dir, `${key}.mjs`);
  const lock = join(dir, `${key}.lock`);
  mkdirSync(dir, { recursive: true });
  if (!takeLock(lock)) return debug('another run is writing the bundle');
  // process.exit (the bin's EPIPE handler, exit 70) skips the finally below; a lock left behind would stall the cache
  // for STALE_LOCK_MS. A signal still can: that is what the staleness rule is for.
  const release = () => tryUnlink(lock);
  process.once('exit', release);
  const tmp = join(dir, `${key}.${process.pid}.tmp`);
  try {
    const { build } = await import('esbuild');
    const result = await build({
      entryPoints: [ENTRY], absWorkingDir: root, bundle: true, platform: 'node', format: 'esm',
      write: false, metafile: true, logLevel: 'silent',
    });
    if (!(await loaded)) return;
    const outside = Object.keys(result.metafile.inputs).find((input) => !files.has(input.split(sep).join('/')));
    if (outside !== undefined) return debug(`not written: ${outside} is not in the key`);
    if (sourceKey(root).key !== key) return debug('not written: a source changed during the build');
    writeFileSync(tmp, result.outputFiles[0].contents);
    renameSync(tmp, final);
    debug(`wrote ${final}`);
    prune(dir, `${key}.mjs`);
  } catch (error) {
    debug(`not written: ${error instanceof Error ? error.message : String(error)}`);
    tryUnlink(tmp);
  } finally {
    process.off('exit', release);
    release();
  }
}

/**
 * The cache as the bin uses it. Off with TRAINPLAN_NO_CACHE=1 or when module hooks are in the process; kept in
 * TRAINPLAN_CACHE_DIR or else node_modules/.cache/trainplan-cli (git-ignored with node_modules, gone with a clean
 * install); TRAINPLAN_CACHE_DEBUG=1 says on stderr which path ran, for the tests and for anyone who wonders.
 */
export function cliCache({ env, execArgv, stderr, root = ROOT }) {
  const debug = env.TRAINPLAN_CACHE_DEBUG === '1' ? (s) => stderr(`trainplan: cache: ${s}\n`) : () => {};
  const off = (why) => {
    debug(`off (${why}): running through tsx`);
    return { importMain: async () => undefined, bundleWhen: () => {} };
  };
  if (env.TRAINPLAN_NO_CACHE === '1') return off('TRAINPLAN_NO_CACHE=1');
  if (HOOK_FLAGS.test(execArgv.join(' ')) || HOOK_FLAGS.test(env.NODE_OPTIONS ?? '')) return off('module hooks in the process');
  let state;
  try {
    const dir = env.TRAINPLAN_CACHE_DIR || join(root, 'node_modules', '.cache', 'trainplan-cli');
    state = { dir, ...sourceKey(root) };
  } catch (error) {
    return off(error instanceof Error ? error.message : String(error));
  }
  const bundle = join(state.dir, `${state.key}.mjs`);
  return {
    /** The bundled CLI's main, or undefined (no bundle for these sources, or one that will not import). */
    async importMain() {
      if (!existsSync(bundle)) return debug(`miss: running through tsx`);
      try {
        const { main } = await import(pathToFileURL(bundle).href);
        if (typeof main !== 'function') throw new Error('the bundle exports no main');
        debug(`hit ${bundle}`);
        return main;
      } catch (error) {
        // A damaged bundle is rebuilt by this run (the rename replaces it).
        return debug(`bundle failed to import (${error instanceof Error ? error.message : String(error)}): running through tsx`);
      }
    },
    /** Starts the build now, beside the tsx load; writes it once `loaded` resolves true. Never rejects. */
    bundleWhen(loaded) {
      void writeBundle({ root, ...state, loaded, debug }).catch(() => {});
    },
  };
}
