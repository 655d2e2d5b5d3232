import { nearestAll } from '@trainplan/protocol';
import type { Hono } from 'hono';
import { notFound, saidBack } from '../http/problems.ts';
import { respond } from '../http/respond.ts';
import { PRESET_KINDS, PRESET_LISTS, type PresetKind } from '../presets/preset-json.ts';

const isKind = (kind: string): kind is PresetKind => (PRESET_KINDS as string[]).includes(kind);

/** ' (did you mean h100-sxm?)' for a slip, as protocol's messages for an unknown id in a scenario say; else ''. */
function meant(typed: string, known: readonly string[]): string {
  // nearestAll compares nothing for an id longer than every known one (past its edits): a 1 MB path costs no table.
  const near = nearestAll(typed, known);
  if (near.length === 0 || near.length > 3) return '';
  return ` (did you mean ${near.length === 1 ? near[0] : `${near.slice(0, -1).join(', ')} or ${near.at(-1)}`}?)`;
}

const noKind = (kind: string): Response =>
  notFound(`no preset catalogue "${saidBack(kind)}"${meant(kind, PRESET_KINDS)}; known: ${PRESET_KINDS.join(', ')}`);

/** GET /v1/presets/{gpus,systems,networks,models} and /v1/presets/{kind}/{id}. */
export function presetRoutes(app: Hono): void {
  app.get('/v1/presets', (c) => respond(c, Object.fromEntries(PRESET_KINDS.map((k) => [k, PRESET_LISTS[k].map((p) => p.id)]))));
  app.get('/v1/presets/:kind', (c) => {
    const kind = c.req.param('kind');
    if (!isKind(kind)) return noKind(kind);
    return respond(c, PRESET_LISTS[kind]);
  });
  app.get('/v1/presets/:kind/:id', (c) => {
    const { kind, id } = c.req.param();
    if (!isKind(kind)) return noKind(kind);
    const list: readonly { id: string }[] = PRESET_LISTS[kind];
    const preset = list.find((p) => p.id === id);
    if (!preset) {
      const ids = list.map((p) => p.id);
      return notFound(`no ${kind.slice(0, -1)} preset "${saidBack(id)}"${meant(id, ids)}; known: ${ids.join(', ')}`);
    }
    return respond(c, preset);
  });
}
