/**
 * A program with deliberate type errors: `run-types.test.ts` compiles it with tsc and checks the
 * diagnostic text of each line marked `// expect:`. Not part of any tsconfig.
 */
import { Agent } from '../../agent/agent.js';
import type { RunContext } from '../run-context.js';
import { Runner, run, runStep } from '../run.js';
import { MemorySession } from '../../session/memory-session.js';

const desk = new Agent<{ userId: string }>({ name: 'Desk' });
const typed = new Agent({
  name: 'Typed',
  instructions: (ctx: RunContext<{ tenant: string }>) => `Tenant ${ctx.context.tenant}`,
});
const session = new MemorySession();

export async function typos(): Promise<void> {
  await run(desk, 'hi', { sesion: session }); // expect: sesion
  await run(desk, 'hi', { stream: true, sesion: session }); // expect: sesion-stream
  await new Runner().run(desk, 'hi', { stream: true, sesion: session }); // expect: sesion-runner
  await run(desk, 'hi', { context: { userId: 42 } }); // expect: context-type
  await run(desk, 'hi', { context: { user: 'u1' } }); // expect: context-key
  await run(typed, 'hi', { stream: true, context: { tenant: 7 } }); // expect: context-inferred
  await runStep(desk, 'hi', { context: { userId: false } }); // expect: context-step
}
