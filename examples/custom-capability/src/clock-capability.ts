/**
 * A third-party capability: it depends only on `@baton/kernel` (the `Capability` v1 contract
 * in capability/capability.ts). For each run it gives the agent a `current_time` tool and one
 * instruction line, and logs its `setup` / `teardown`. The agent's own declaration is never
 * changed: the run builds an execution agent with the capability's additions.
 */
import { type Capability, type CapabilityRun, tool } from '@baton/kernel';

export interface ClockOptions {
  /** IANA time zone the answers are given in. Default `'UTC'`. */
  timeZone?: string;
  /** The clock (default `() => new Date()`); pass a fixed one for tests. */
  now?: () => Date;
  /** Where lifecycle lines go (default `console.log`). */
  log?: (line: string) => void;
}

export class ClockCapability implements Capability {
  readonly specificationVersion = 'v1' as const;
  readonly name = 'clock';
  private readonly timeZone: string;
  private readonly now: () => Date;
  private readonly log: (line: string) => void;

  constructor(options: ClockOptions = {}) {
    this.timeZone = options.timeZone ?? 'UTC';
    this.now = options.now ?? (() => new Date());
    this.log = options.log ?? ((line) => console.log(line));
  }

  setup(run: CapabilityRun): void {
    this.log(`[clock] setup for run ${run.runId} (agent ${run.agent.name})`);
  }

  tools(_run: CapabilityRun) {
    return [
      tool({
        name: 'current_time',
        description: `The current date and time (ISO 8601) and the weekday, in ${this.timeZone}.`,
        effect: 'pure',
        execute: () => {
          const now = this.now();
          const weekday = now.toLocaleDateString('en-US', {
            weekday: 'long',
            timeZone: this.timeZone,
          });
          return { iso: now.toISOString(), weekday, timeZone: this.timeZone };
        },
      }),
    ];
  }

  instructions(): string {
    return `When the user asks about today's date, the time or the weekday, call current_time (time zone ${this.timeZone}); never guess.`;
  }

  teardown(run: CapabilityRun): void {
    this.log(`[clock] teardown for run ${run.runId}`);
  }
}
