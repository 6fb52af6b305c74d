/**
 * A capability with a tool, an instruction fragment, compaction and run state, for the capability
 * kit's own tests: correct, it passes `describeCapabilityConformance`; each `ToyCapabilityBug`
 * plants a defect seen in real capabilities that the kit must catch.
 */
import {
  type Capability,
  type CapabilityRun,
  type Item,
  type ModelSettings,
  tool,
} from '@baton/kernel';

export type ToyCapabilityBug =
  /** Per-run data on an array the default shallow copy shares: runs see each other. */
  | 'shared_state'
  /** Stores a `Date` in `run.state`: it comes back as a string after a resume. */
  | 'non_json_state'
  /** Compacts by splicing the array it is given (the run's own model input). */
  | 'mutates_input'
  /** Compacts at a fixed count, leaving a function output without its call. */
  | 'unpaired_compaction'
  /** Erases its state on an interruption, so the resume's setup fails. */
  | 'teardown_breaks_resume'
  /** Changes the settings object it is given. */
  | 'mutates_settings';

const KEEP = 19;

export function toyCapability(bug?: ToyCapabilityBug): Capability {
  const runs: string[] = [];
  const cap: Capability & { runs: string[] } = {
    specificationVersion: 'v1',
    name: 'toy',
    runs,
    clone: bug === 'shared_state' ? undefined : () => ({ ...cap, runs: [] }),
    setup(run: CapabilityRun) {
      (this as typeof cap).runs.push(run.runId);
      const previous = run.state.get('toy') as { setups: number } | undefined;
      const setups = (previous === undefined ? 0 : previous.setups) + 1;
      run.state.set('toy', bug === 'non_json_state' ? { setups, at: new Date(0) } : { setups });
    },
    instructions(this: typeof cap) {
      return `Toy capability: ${this.runs.length} run(s) on this copy.`;
    },
    tools: (run) => [
      tool({
        name: 'toy_lookup',
        description: 'Look something up.',
        execute: (args: { q?: string }) => `found ${args.q ?? '?'} (run ${run.runId})`,
      }),
    ],
    modelSettings(settings: ModelSettings) {
      if (bug !== 'mutates_settings')
        return { ...settings, temperature: settings.temperature ?? 0.2 };
      (settings as { temperature?: number }).temperature = 0.2;
      return settings;
    },
    processInput(items: Item[]) {
      if (items.length <= KEEP) return items;
      if (bug === 'unpaired_compaction') return items.slice(-KEEP);
      let cut = items.length - KEEP;
      while (
        cut < items.length &&
        !(items[cut].type === 'message' && (items[cut] as { role: string }).role === 'user')
      )
        cut++;
      if (bug === 'mutates_input') {
        items.splice(0, cut);
        return items;
      }
      return items.slice(cut);
    },
    teardown(run, outcome) {
      if (bug === 'teardown_breaks_resume' && outcome.type === 'interruption')
        run.state.set('toy', null);
    },
  };
  return cap;
}
