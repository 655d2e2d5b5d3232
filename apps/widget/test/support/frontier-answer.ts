import { runNodes, type NodesOkJson } from '@trainplan/protocol';

/** The frontier request of the widget's default scenario: GPT-3 175B on DGX A100, batch 1536, 300B tokens. */
export const FRONTIER_REQUEST = { model: 'gpt3-175b', cluster: { gpu: 'a100-80gb' }, training: { globalBatchSize: 1536 }, tokens: 300e9, frontier: true };

let answer: NodesOkJson | undefined;

/** runNodes's answer to FRONTIER_REQUEST, searched once per test file (about a second). */
export function frontierAnswer(): NodesOkJson {
  if (answer) return answer;
  const a = runNodes(FRONTIER_REQUEST);
  if (!a.ok || a.mode !== 'cost-time-frontier') throw new Error(`expected a time–cost curve: ${a.ok ? a.mode : a.message}`);
  answer = a;
  return a;
}
