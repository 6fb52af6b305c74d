/** The demo's checklist: structural checks must hold; model-dependent ones become observations with a real model. */
export interface Check {
  name: string;
  ok: boolean;
  detail?: string;
  /** Depends on the model's choices (an observation when a real model plays). */
  modelDependent: boolean;
}

export class Checklist {
  readonly checks: Check[] = [];
  constructor(private readonly scripted: boolean) {}

  check(name: string, ok: boolean, detail?: string, modelDependent = false): void {
    this.checks.push({ name, ok, detail, modelDependent });
  }

  /** Prints the list; returns true when every required check passed. */
  print(write: (line: string) => void): boolean {
    write('\nChecklist');
    let pass = true;
    for (const c of this.checks) {
      const soft = c.modelDependent && !this.scripted;
      const mark = c.ok ? '✔' : soft ? '•' : '✘';
      if (!c.ok && !soft) pass = false;
      write(
        `  ${mark} ${c.name}${c.detail ? ` — ${c.detail}` : ''}${soft && !c.ok ? ' (observation: depends on the model)' : ''}`,
      );
    }
    const required = this.checks.filter((c) => !(c.modelDependent && !this.scripted));
    write(
      `\n${required.filter((c) => c.ok).length} passed, ${required.filter((c) => !c.ok).length} failed`,
    );
    return pass;
  }
}
