/**
 * What a Responses stream has said about each output item, keyed by `output_index` (and, inside
 * an item, by `content_index` / `summary_index`) — never by `item_id`, which some proxies rotate
 * on every event. Used to tag deltas with the stable id / call id of the item at their index,
 * and to rebuild the output when `response.completed` carries none.
 */
import type { Item } from '@baton/kernel';

/** One output index. */
export interface OutputSlot {
  /** The item of `response.output_item.added`. */
  added?: Item;
  /** The item of `response.output_item.done`. */
  done?: Item;
  /** `output_text` deltas by `content_index`. */
  text: Map<number, string>;
  /** `refusal` deltas by `content_index`. */
  refusal: Map<number, string>;
  /** `reasoning_summary_text` deltas by `summary_index`. */
  summary: Map<number, string>;
  /** `function_call_arguments` deltas, concatenated. */
  args: string;
}

/** A valid `output_index` / `content_index`: a non-negative integer. */
export function isIndex(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

/** The output slots of one stream. */
export class OutputSlots {
  private readonly slots = new Map<number, OutputSlot>();
  private last: number | undefined;
  private max = -1;

  /**
   * The slot of an event: its `output_index` when valid, else the most recent slot (index 0
   * when there is none yet). `fresh` (for `output_item.added`) takes the next free index instead.
   */
  slotOf(outputIndex: unknown, fresh = false): { index: number; slot: OutputSlot } {
    let index: number;
    if (isIndex(outputIndex)) index = outputIndex;
    else if (fresh) index = this.max + 1;
    else index = this.last ?? 0;
    let slot = this.slots.get(index);
    if (!slot) {
      slot = { text: new Map(), refusal: new Map(), summary: new Map(), args: '' };
      this.slots.set(index, slot);
      if (index > this.max) this.max = index;
    }
    this.last = index;
    return { index, slot };
  }

  /** The stable id of the item at a slot (from its `added` / `done` item). */
  static itemId(slot: OutputSlot): string | undefined {
    const id =
      (slot.added as { id?: unknown } | undefined)?.id ??
      (slot.done as { id?: unknown } | undefined)?.id;
    return typeof id === 'string' ? id : undefined;
  }

  /** The call id of the function call at a slot. */
  static callId(slot: OutputSlot): string | undefined {
    for (const item of [slot.added, slot.done]) {
      if (item?.type === 'function_call' && typeof item.call_id === 'string') return item.call_id;
    }
    return undefined;
  }

  /**
   * The output as the stream built it, in `output_index` order: each slot's `done` item, else
   * its `added` item completed with the deltas seen (text parts by `content_index`, summary parts
   * by `summary_index`, arguments). Slots with neither item are left out.
   */
  assemble(): Item[] {
    const out: Item[] = [];
    for (const index of [...this.slots.keys()].sort((a, b) => a - b)) {
      const slot = this.slots.get(index)!;
      const item = slot.done ?? (slot.added ? complete(slot.added, slot) : undefined);
      if (item) out.push(item);
    }
    return out;
  }
}

const byIndex = (map: Map<number, string>) => [...map.entries()].sort((a, b) => a[0] - b[0]);

function complete(added: Item, slot: OutputSlot): Item {
  if (added.type === 'message') {
    const parts: [number, Record<string, unknown>][] = [
      ...byIndex(slot.text).map(([i, text]): [number, Record<string, unknown>] => [
        i,
        { type: 'output_text', text, annotations: [] },
      ]),
      ...byIndex(slot.refusal).map(([i, refusal]): [number, Record<string, unknown>] => [
        i,
        { type: 'refusal', refusal },
      ]),
    ];
    const content = parts.sort((a, b) => a[0] - b[0]).map(([, part]) => part);
    return {
      ...added,
      content: content.length > 0 ? content : added.content,
      status: 'completed',
    } as Item;
  }
  if (added.type === 'function_call')
    return { ...added, arguments: slot.args || added.arguments, status: 'completed' };
  if (added.type === 'reasoning') {
    const summary = byIndex(slot.summary).map(([, text]) => ({
      type: 'summary_text' as const,
      text,
    }));
    return { ...added, summary: summary.length > 0 ? summary : added.summary };
  }
  return added;
}
