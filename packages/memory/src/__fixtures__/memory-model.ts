/**
 * A deterministic scripted model for memory tests (also used by child processes): phase 1
 * (a request with an output schema) answers with artifacts derived from the rollout text;
 * phase 2 (a request with `write_file`) reads `raw_memories.md`, writes `MEMORY.md` and
 * `memory_summary.md` from it, then answers; anything else gets "ok".
 */
import type { Item, ModelRequest } from '@baton/kernel';
import { ScriptedModel, type ScriptStep } from '@baton/testing';

let seq = 0;
const callId = () => `call_mem_${++seq}`;

function text(item: Item | undefined): string {
  if (!item) return '';
  if (item.type === 'message')
    return typeof item.content === 'string'
      ? item.content
      : item.content.map((p) => ('text' in p ? p.text : '')).join('');
  if (item.type === 'function_call_output')
    return typeof item.output === 'string' ? item.output : JSON.stringify(item.output);
  return '';
}

/** The phase-1 answer for a rollout prompt: slug, summary and raw memory naming its facts. */
export function phaseOneAnswer(prompt: string): Item[] {
  const id = /Rollout id: (\S+)/.exec(prompt)?.[1] ?? 'unknown';
  const facts = [...prompt.matchAll(/USER: (.*)/g)].map((m) => m[1].trim());
  const body = {
    rolloutSlug: `Task ${id}`,
    rolloutSummary: `# Rollout ${id}\n- the user said: ${facts.join(' / ')}`,
    rawMemory: `## Conversation ${id}\nkeywords: ${id}\n${facts.map((f) => `- fact: ${f}`).join('\n')}`,
  };
  return [
    {
      type: 'message',
      role: 'assistant',
      content: [{ type: 'output_text', text: JSON.stringify(body) }],
      status: 'completed',
    },
  ];
}

/** One step of the memory model (see the module doc). */
export function memoryStep(request: ModelRequest): ScriptStep {
  const last = request.input.at(-1);
  if (request.outputSchema) return phaseOneAnswer(text(request.input[0]));
  if (request.tools.some((t) => t.name === 'write_file')) {
    if (last?.type !== 'function_call_output')
      return [
        {
          type: 'function_call',
          call_id: callId(),
          name: 'read_file',
          arguments: JSON.stringify({ path: 'raw_memories.md' }),
        },
      ];
    const prev = request.input.at(-2);
    if (prev?.type === 'function_call' && prev.name === 'read_file') {
      const raw = text(last);
      const ids = [...raw.matchAll(/^rollout_id: (\S+)/gm)].map((m) => m[1]);
      return [
        {
          type: 'function_call',
          call_id: callId(),
          name: 'write_file',
          arguments: JSON.stringify({ path: 'MEMORY.md', content: `# Handbook\n\n${raw}` }),
        },
        {
          type: 'function_call',
          call_id: callId(),
          name: 'write_file',
          arguments: JSON.stringify({
            path: 'memory_summary.md',
            content: `Memory of ${ids.length} conversation(s): ${ids.join(', ')}.`,
          }),
        },
      ];
    }
    return [
      {
        type: 'message',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'Updated MEMORY.md and memory_summary.md.' }],
        status: 'completed',
      },
    ];
  }
  return [
    {
      type: 'message',
      role: 'assistant',
      content: [{ type: 'output_text', text: 'ok' }],
      status: 'completed',
    },
  ];
}

/** A ScriptedModel answering every request with {@link memoryStep}. */
export function memoryModel(): ScriptedModel {
  return new ScriptedModel([memoryStep], { whenExhausted: 'repeat_last' });
}
