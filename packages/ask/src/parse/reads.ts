import type { withDefaults } from '../defaults.ts';
import type { BudgetRead } from './budget-read.ts';
import type { ClusterCounts } from './cluster-counts.ts';
import type { DeadlineRead } from './deadline-read.ts';
import type { HardwareNamed } from './hardware-named.ts';
import type { IntentFacts } from './intent-facts.ts';
import type { LayoutsRead } from './layout-read.ts';
import type { MemorySettingsRead } from './memory-settings-read.ts';
import type { ModelsNamed } from './models-named.ts';
import type { ModelsResolved } from './models-resolved.ts';
import type { PrecisionRead } from './precision-read.ts';
import type { PricesResolved } from './prices.ts';
import type { ServingRead } from './serving-read.ts';
import type { SettingsRead } from './settings-read.ts';

/**
 * What the reading phases found, by phase, beyond the facts stated (ParseState.stated): the matches and the words written
 * but not read, from which the readings and the notes on the defaults are said once the intent is known.
 */
export interface Reads {
  readonly models: ModelsNamed;
  readonly hardware: HardwareNamed;
  readonly settings: SettingsRead;
  readonly serving: ServingRead;
  readonly budget: BudgetRead;
  readonly deadline: DeadlineRead;
  readonly layouts: LayoutsRead;
  readonly precision: PrecisionRead;
  readonly memory: MemorySettingsRead;
  readonly cluster: ClusterCounts;
  readonly prices: PricesResolved;
  readonly resolved: ModelsResolved;
}

/** The intent and its plan: the facts planned, with the defaults taken for the rest (each said back). */
export type Plan = IntentFacts & ReturnType<typeof withDefaults>;
