/** Prints run items as a readable transcript. */
import { extractText, type MessageItem, type RunItem } from '@baton/kernel';

export function printTranscript(items: readonly RunItem[], write: (line: string) => void): void {
  for (const item of items) {
    const raw = item.raw_item as any;
    switch (item.type) {
      case 'message_output_item':
        write(`  ${item.agent.name}: ${extractText(raw as MessageItem)}`);
        break;
      case 'tool_call_item':
        write(`  ${item.agent.name} → ${raw.name}(${raw.arguments})`);
        break;
      case 'tool_call_output_item':
        write(`    ← ${typeof raw.output === 'string' ? raw.output : JSON.stringify(raw.output)}`);
        break;
      case 'handoff_call_item':
        write(`  ${item.agent.name} → handoff (${raw.name})`);
        break;
      case 'handoff_output_item':
        write(`    ← now talking to ${(item as any).target_agent.name}`);
        break;
      case 'reasoning_item':
        write(`  ${item.agent.name} (thinking)`);
        break;
    }
  }
}
