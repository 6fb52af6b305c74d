/**
 * Span → detail pane: the fields of a span by kind, and model input/output items as a chat
 * transcript. Data the run did not record (tracing with `includeSensitiveData: false`) and
 * details the kernel hid (redacted tool errors, redacted reasoning) are marked as redacted,
 * never shown as empty.
 */
import type { Span } from '@baton/kernel';

/** The kernel's `REDACTED_TOOL_ERROR` (kept in step by a test; the page must not bundle the kernel). */
export const REDACTED_TOOL_ERROR = 'An error occurred while running the tool. Please try again.';

/** A value the trace does not carry, and why. */
export interface Redacted {
  redacted: true;
  reason: string;
}

const NOT_RECORDED: Redacted = {
  redacted: true,
  reason: 'not recorded: the run traced with includeSensitiveData: false',
};
const PENDING: Redacted = { redacted: true, reason: 'pending: the span has not ended' };

/** One entry of a chat transcript. */
export type ChatEntry =
  | { kind: 'message'; role: string; text: string; attachments: string[] }
  | { kind: 'tool_call'; name: string; callId: string; arguments: string }
  | { kind: 'tool_output'; callId: string; output: string }
  | { kind: 'reasoning'; text: string; redacted: boolean }
  | { kind: 'other'; type: string; json: string };

/** A field of the detail pane: text, a JSON value, a transcript, or a redacted marker. */
export type DetailValue =
  | { type: 'text'; text: string }
  | { type: 'json'; value: unknown }
  | { type: 'chat'; entries: ChatEntry[] }
  | { type: 'redacted'; reason: string };

export interface DetailField {
  label: string;
  value: DetailValue;
}

const text = (t: unknown): DetailValue => ({ type: 'text', text: String(t) });
const redacted = (r: Redacted): DetailValue => ({ type: 'redacted', reason: r.reason });

function partText(part: unknown): { text?: string; attachment?: string } {
  if (typeof part === 'string') return { text: part };
  if (!part || typeof part !== 'object') return {};
  const p = part as Record<string, any>;
  if (p.type === 'input_text' || p.type === 'output_text') return { text: String(p.text ?? '') };
  if (p.type === 'refusal') return { text: `(refusal) ${String(p.refusal ?? '')}` };
  if (p.type === 'input_image')
    return { attachment: `image ${p.file_id ?? truncate(String(p.image_url ?? ''), 60)}` };
  if (p.type === 'input_file')
    return { attachment: `file ${p.filename ?? p.file_id ?? p.file_url ?? ''}`.trim() };
  return { attachment: String(p.type ?? 'part') };
}

const truncate = (s: string, max: number) => (s.length > max ? `${s.slice(0, max)}…` : s);
const asText = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v, null, 2));

/** Model input or output items as a chat transcript (`systemInstructions` first, as `system`). */
export function toTranscript(items: unknown[], systemInstructions?: string): ChatEntry[] {
  const out: ChatEntry[] = [];
  if (systemInstructions)
    out.push({ kind: 'message', role: 'system', text: systemInstructions, attachments: [] });
  for (const raw of items) {
    const item = (raw ?? {}) as Record<string, any>;
    switch (item.type) {
      case 'message':
      case undefined: {
        if (item.role === undefined) {
          out.push({ kind: 'other', type: String(item.type), json: asText(item) });
          break;
        }
        const parts = typeof item.content === 'string' ? [item.content] : (item.content ?? []);
        const texts: string[] = [];
        const attachments: string[] = [];
        for (const p of parts as unknown[]) {
          const r = partText(p);
          if (r.text !== undefined) texts.push(r.text);
          if (r.attachment) attachments.push(r.attachment);
        }
        out.push({ kind: 'message', role: String(item.role), text: texts.join('\n'), attachments });
        break;
      }
      case 'function_call':
        out.push({
          kind: 'tool_call',
          name: String(item.name),
          callId: String(item.call_id),
          arguments: String(item.arguments ?? ''),
        });
        break;
      case 'function_call_output':
        out.push({
          kind: 'tool_output',
          callId: String(item.call_id),
          output: typeof item.output === 'string' ? item.output : asText(item.output),
        });
        break;
      case 'reasoning': {
        const summary = (item.summary ?? []).map((s: { text?: string }) => s.text ?? '');
        const content = (item.content ?? []).map((s: { text?: string }) => s.text ?? '');
        const shown = [...summary, ...content].filter(Boolean).join('\n');
        const hidden =
          !shown &&
          (item.encrypted_content ||
            JSON.stringify(item.provider_data ?? {}).includes('redacted_thinking'));
        out.push({
          kind: 'reasoning',
          text: shown || (hidden ? 'reasoning is encrypted or redacted by the provider' : ''),
          redacted: Boolean(hidden),
        });
        break;
      }
      default:
        out.push({ kind: 'other', type: String(item.type), json: asText(item) });
    }
  }
  return out;
}

function usageFields(usage: Record<string, number | undefined>): DetailValue {
  const order = [
    'inputTokens',
    'outputTokens',
    'totalTokens',
    'cachedInputTokens',
    'cacheCreationInputTokens',
    'reasoningTokens',
    'requests',
  ];
  const lines = order
    .filter((k) => usage[k] !== undefined)
    .map((k) => `${k}: ${Number(usage[k]).toLocaleString('en-US')}`);
  return text(lines.join('\n') || 'none reported');
}

/**
 * The detail-pane fields of a span, by kind. Generation input/output become transcripts; what
 * was not recorded is `redacted` (with the reason), what is still pending on a running span says so.
 */
export function spanDetail(span: Span): DetailField[] {
  const d = span.data as Span['data'] & Record<string, any>;
  const ended = span.endedAt !== undefined;
  const fields: DetailField[] = [];
  const add = (label: string, value: DetailValue | undefined) => {
    if (value) fields.push({ label, value });
  };
  switch (d.kind) {
    case 'generation': {
      add('Model', text(d.model ?? 'unknown'));
      if (d.provider) add('Provider', text(d.provider));
      if (d.responseModel && d.responseModel !== d.model)
        add('Response model', text(d.responseModel));
      if (d.responseId) add('Response id', text(d.responseId));
      add(
        'Settings',
        d.modelSettings && Object.keys(d.modelSettings).length > 0
          ? { type: 'json', value: d.modelSettings }
          : text('defaults'),
      );
      add(
        'Usage',
        d.usage ? usageFields(d.usage) : ended ? text('none reported') : redacted(PENDING),
      );
      add(
        'Input',
        Array.isArray(d.input)
          ? { type: 'chat', entries: toTranscript(d.input, d.systemInstructions) }
          : redacted(NOT_RECORDED),
      );
      add(
        'Output',
        Array.isArray(d.output)
          ? { type: 'chat', entries: toTranscript(d.output) }
          : !ended && !span.error
            ? redacted(PENDING)
            : span.error
              ? text('none (the call failed)')
              : redacted(NOT_RECORDED),
      );
      break;
    }
    case 'function':
      add('Tool', text(d.name));
      add('call_id', text(d.callId));
      add('Arguments', d.input !== undefined ? jsonOrText(d.input) : redacted(NOT_RECORDED));
      add(
        'Output',
        d.output !== undefined
          ? jsonOrText(d.output)
          : !ended
            ? redacted(PENDING)
            : span.error
              ? undefined
              : redacted(NOT_RECORDED),
      );
      break;
    case 'agent':
      add('Agent', text(d.name));
      add('Tools', text(d.tools?.length ? d.tools.join(', ') : 'none'));
      add('Handoffs', text(d.handoffs?.length ? d.handoffs.join(', ') : 'none'));
      if (d.outputType) add('Output type', text(d.outputType));
      if (d.interruptions?.length)
        add(
          'Waiting for approval',
          text(
            d.interruptions
              .map(
                (i: any) =>
                  `${i.toolName} [${i.callId}]${i.kind === 'in_doubt' ? ' (in doubt)' : ''}${i.arguments !== undefined ? ` ${i.arguments}` : ''}`,
              )
              .join('\n'),
          ),
        );
      break;
    case 'turn':
      add('Turn', text(d.turn));
      add('Agent', text(d.agentName));
      break;
    case 'handoff':
      add('From', text(d.from));
      add('To', text(d.to ?? 'unknown'));
      break;
    case 'guardrail':
      add('Guardrail', text(d.name));
      add('Tripwire', text(d.triggered ? 'triggered' : 'not triggered'));
      break;
    case 'mcp_list_tools':
      add('Server', text(d.server));
      add(
        'Tools',
        Array.isArray(d.result) ? text(d.result.join(', ') || 'none') : redacted(PENDING),
      );
      break;
    case 'custom':
      add('Name', text(d.name));
      if (d.data !== undefined) add('Data', { type: 'json', value: d.data });
      break;
    default:
      add('Data', { type: 'json', value: d });
  }
  if (span.error) {
    const isRedacted = span.error.message === REDACTED_TOOL_ERROR;
    add(
      'Error',
      text(
        isRedacted
          ? `${span.error.message}\n(redacted: the tool's error function hid the details)`
          : span.error.message,
      ),
    );
    if (span.error.data) add('Error data', { type: 'json', value: span.error.data });
  }
  return fields;
}

function jsonOrText(value: string): DetailValue {
  try {
    return { type: 'json', value: JSON.parse(value) };
  } catch {
    return text(value);
  }
}
