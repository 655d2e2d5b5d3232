/// <reference lib="dom" />
import { validateScenario, type EstimateOk, type ScenarioInput } from '@trainplan/protocol';
import { fitNetworkToGpu } from '../form/fit-network.ts';
import { dropConflicting, keptNote, type KeptFields } from '../form/kept-fields.ts';
import { fitPrecisionToGpu, readScenario } from '../form/scenario-from-fields.ts';
import { deadlineFromHash, hasScenarioPart, scenarioFromHash, widgetHash } from '../hash.ts';
import { FormElement } from './form-element.ts';
import { say } from './shadow-form.ts';

/** What `<trainplan-estimator>` keeps on screen: the last scenario that gave a good estimate, and that estimate. */
export interface EstimatorAnswer {
  readonly scenario: ScenarioInput;
  readonly estimate: EstimateOk;
}

/**
 * The estimator's form and its link (trainplan-estimator.ts answers it): with `sync-hash` it starts from the page's URL
 * hash and mirrors the scenario into it (hash.ts); the link's fields the form cannot show are kept (form/kept-fields.ts);
 * a GPU change switches a precision or network the GPU cannot take (and back, on one that can), and the notes under the
 * status say what a change did on its own; a bad link's message stays until the reader edits a field.
 */
export abstract class LinkedEstimatorForm extends FormElement<EstimatorAnswer> {
  /** The link's fields the form cannot show: merged into every estimate and the shared hash (form/kept-fields.ts). */
  protected keptFields: KeptFields = {};
  /** What the last change did on its own (a kept field dropped, the precision switched), shown under the status. */
  #notices: string[] = [];
  /** The precision a GPU change switched away from, restored on a GPU that runs it (until the reader picks one). */
  #precisionSwitchedFrom: string | undefined;
  /** The network a GPU change set back to the default, restored on a GPU it serves (until the reader picks one). */
  #networkSwitchedFrom: string | undefined;
  /** A bad link's message: it stays, and the page's URL is left alone, until the reader edits a field. */
  #linkProblem = '';
  readonly #onHashChange = () => this.guard(() => this.#readHash(true));

  protected override connected(): void {
    if (!this.hasAttribute('sync-hash')) return;
    window.addEventListener('hashchange', this.#onHashChange);
    this.#readHash(false);
  }

  protected override disconnected(): void {
    window.removeEventListener('hashchange', this.#onHashChange);
  }

  #readHash(rerun: boolean): void {
    const hash = window.location.hash;
    if (!hasScenarioPart(hash)) return;
    const raw = scenarioFromHash(hash);
    const v = raw === undefined ? undefined : validateScenario(raw);
    if (!v?.ok) {
      const why = v ? `is not valid (${v.issues.map((i) => `${i.path}: ${i.message}`).join('; ')})` : 'could not be read (it is not URI-encoded JSON)';
      this.#linkProblem = `The link's scenario ${why}; showing the page's example.`;
      this.status('');
      return;
    }
    const reading = readScenario(raw as ScenarioInput, this.values);
    // A link states its plan: Auto, left on, would search it away (the searched plan's link states the plan found).
    this.values = { ...reading.values, auto: 'false' };
    // The widget's own link states the whole "how many nodes" budget: its deadline, and no tokens is a blank budget.
    const days = deadlineFromHash(hash);
    if (days !== undefined) {
      this.values.days = days;
      if ((raw as ScenarioInput).training.tokens === undefined) this.values.tokens = '';
    }
    this.keptFields = reading.kept;
    this.#notices = [...reading.notes];
    this.#precisionSwitchedFrom = this.#networkSwitchedFrom = undefined;
    this.#linkProblem = '';
    this.status('');
    this.#showNote();
    if (rerun) {
      this.writeForm();
      this.schedule(0);
    }
  }

  /** The reader has taken over: a bad link's message goes. */
  protected override input(name: string, value: string): boolean {
    if (this.#linkProblem) {
      this.#linkProblem = '';
      this.status('');
    }
    return this.change(name, value);
  }

  /**
   * One field takes a new value (from the reader or an attribute): kept link fields it conflicts with are
   * dropped, a GPU without tensor cores for the precision switches it, and one the network cannot serve sets the
   * network back to the GPU's default (each comes back on a GPU that takes it); the notes say what happened.
   * True when another field changed with it (the form must be redrawn).
   */
  protected override change(name: string, value: string): boolean {
    const old = this.values[name];
    this.values[name] = value;
    if (old === value) return false;
    const notices: string[] = [];
    let adjusted = false;
    const dropped = dropConflicting(this.keptFields, name, this.values);
    this.keptFields = dropped.kept;
    if (dropped.note) notices.push(dropped.note);
    if (name === 'precision') this.#precisionSwitchedFrom = undefined;
    if (name === 'network') this.#networkSwitchedFrom = undefined;
    if (name === 'gpu') {
      const fit = fitPrecisionToGpu(this.values, this.#precisionSwitchedFrom);
      const net = fitNetworkToGpu(fit.values, this.#networkSwitchedFrom);
      adjusted = net.values.precision !== this.values.precision || net.values.network !== this.values.network;
      this.values = { ...net.values };
      this.#precisionSwitchedFrom = fit.switchedFrom;
      this.#networkSwitchedFrom = net.switchedFrom;
      notices.push(...[fit.note, net.note].filter(Boolean));
    }
    this.#notices = notices;
    this.#showNote();
    return adjusted;
  }

  #showNote(): void {
    say(this.root.querySelector('.note'), [keptNote(this.keptFields), ...this.#notices].filter(Boolean).join(' '));
  }

  /** The status line: a bad link's message (until the reader edits a field), then `text`; muted only without that message. */
  protected override status(text: string, busy?: boolean): void {
    super.status([this.#linkProblem, text].filter(Boolean).join(' '), busy && !this.#linkProblem);
  }

  /** The link and the page's hash for `scenario`; none shown without one (a field the form cannot read). */
  protected share(scenario: ScenarioInput | undefined, days?: number): void {
    // Only an element with sync-hash starts from the link: elsewhere it would open the page's example.
    const share = this.root.querySelector<HTMLElement>('.share');
    if (share) share.hidden = !scenario || !this.hasAttribute('sync-hash');
    if (!scenario) return;
    const hash = widgetHash(scenario, days);
    const link = this.root.querySelector<HTMLAnchorElement>('.share-link');
    if (link) link.href = `${window.location.href.split('#')[0]}${hash}`;
    // replaceState, not location.hash: no history entry per keystroke and no scroll jump. A bad link stays
    // in the address bar (the reader can see and fix it) until the reader edits a field.
    if (this.hasAttribute('sync-hash') && !this.#linkProblem && window.location.hash !== hash) window.history.replaceState(window.history.state, '', hash);
  }
}
