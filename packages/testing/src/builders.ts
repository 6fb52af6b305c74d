/** Small item builders for tests. Shapes are the kernel's (OpenAI Responses) items. */
import type {
  FunctionCallItem,
  FunctionCallOutputItem,
  MessageItem,
  ReasoningItem,
} from '@baton/kernel';

let callSeq = 0;

/** An assistant message (`role` may be changed). */
export function msg(text: string, role: MessageItem['role'] = 'assistant'): MessageItem {
  if (role === 'assistant')
    return { type: 'message', role, content: [{ type: 'output_text', text }], status: 'completed' };
  return { type: 'message', role, content: text };
}

/** A function call; `args` is an object (stringified) or a raw string (kept as is, even if invalid JSON). */
export function fc(name: string, args: unknown = {}, callId?: string): FunctionCallItem {
  return {
    type: 'function_call',
    call_id: callId ?? `call_${++callSeq}`,
    name,
    arguments: typeof args === 'string' ? args : JSON.stringify(args),
    status: 'completed',
  };
}

/** A function call output. */
export function fco(callId: string, output: string): FunctionCallOutputItem {
  return { type: 'function_call_output', call_id: callId, output };
}

/** A reasoning item with one summary part. */
export function reasoning(text: string, extra: Partial<ReasoningItem> = {}): ReasoningItem {
  return { type: 'reasoning', summary: [{ type: 'summary_text', text }], ...extra };
}
