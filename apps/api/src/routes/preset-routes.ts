import type { Hono } from 'hono';
import { didYouMean } from '@trainplan/protocol';
import { notFound, saidBack } from '../http/problems.ts';
import { respond } from '../http/respond.ts';
import { PRESET_KINDS, PRESET_LISTS, type PresetKind } from '../presets/preset-json.ts';

const isKind = (kind: string): kind is PresetKind => (PRESET_KINDS as string[]).includes(kind);

const noKind = (kind: string): Response =>
  notFound(`no preset catalogue "${saidBack(kind)}"${didYouMean(kind, PRESET_KINDS)}; known: ${PRESET_KINDS.join(', ')}`);

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
      return notFound(`no ${kind.slice(0, -1)} preset "${saidBack(id)}"${didYouMean(id, ids)}; known: ${ids.join(', ')}`);
    }
    return respond(c, preset);
  });
}
